import { HttpError, internalServerError, isHttpError } from './http-error';
import { readNumber, readProperty, readString } from './guards';
import { fromDatabaseError } from './database';
import { fromMalformedPath } from './malformed-path';
import { fromBusboyError, fromMulterError } from './multipart';
import { fromRequestBodyError } from './request-body';
import { fromUnavailableDependency } from './unavailable';
import { fromZodError } from './validation';

export interface ToHttpErrorOptions {
  /** Status for request-validation (zod) failures: 400 by default, 422 for Gitea-compatible APIs. */
  validationStatus?: 400 | 422;
}

type Mapper = (error: unknown, validationStatus: 400 | 422) => HttpError | undefined;

/** Other jshttp-style errors (e.g. from `send`/`serve-static`) that declare themselves client-safe. */
function fromExposedClientError(error: unknown): HttpError | undefined {
  const status = readNumber(error, 'status') ?? readNumber(error, 'statusCode');
  if (status === undefined || status < 400 || status > 499 || readProperty(error, 'expose') !== true) {
    return undefined;
  }
  return new HttpError(status, readString(error, 'message'), { cause: error });
}

// Order matters: specific library shapes first; the exposed-status fallback last.
const MAPPERS: readonly Mapper[] = [
  fromRequestBodyError,
  fromMulterError,
  fromBusboyError,
  fromZodError,
  fromMalformedPath,
  fromUnavailableDependency,
  fromDatabaseError,
  fromExposedClientError,
];

/** Converts anything thrown into an HttpError; unknown errors become an unexposed 500. */
export function toHttpError(error: unknown, options: ToHttpErrorOptions = {}): HttpError {
  if (isHttpError(error)) return error;
  const validationStatus = options.validationStatus ?? 400;
  for (const map of MAPPERS) {
    const mapped = map(error, validationStatus);
    if (mapped !== undefined) return mapped;
  }
  return internalServerError('internal server error', { cause: error });
}

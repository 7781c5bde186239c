import { STATUS_CODES } from 'node:http';

import { isRecord } from './guards';

/** Marks instances so copies of this module loaded twice still recognise each other's errors. */
const HTTP_ERROR_BRAND = Symbol.for('@repo/http-errors/HttpError');

// Fixed texts for the statuses we name, so default messages do not change with Node's STATUS_CODES table.
const STATUS_TEXTS: Readonly<Record<number, string>> = {
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  406: 'not acceptable',
  409: 'conflict',
  412: 'precondition failed',
  413: 'payload too large',
  415: 'unsupported media type',
  422: 'unprocessable entity',
  423: 'locked',
  500: 'internal server error',
  503: 'service unavailable',
};

export interface HttpErrorOptions {
  /** Structured, client-safe information (e.g. validation issues); only sent when `expose` is true. */
  details?: unknown;
  /** Response headers that belong to this error, e.g. `Retry-After` or `WWW-Authenticate`. */
  headers?: Record<string, string>;
  /** The underlying error, kept for logs; never sent to the client. */
  cause?: unknown;
  /** Whether the message and details may reach the client. Defaults to `status < 500`. */
  expose?: boolean;
}

export type HttpErrorFactory = (message?: string, options?: HttpErrorOptions) => HttpError;

/** Default message for a status: its lowercase reason phrase. */
export function statusText(status: number): string {
  return (
    STATUS_TEXTS[status] ??
    STATUS_CODES[status]?.toLowerCase() ??
    (status < 500 ? 'client error' : 'server error')
  );
}

function assertErrorStatus(status: number): void {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new RangeError(`HTTP error status must be an integer from 400 to 599, got ${status}`);
  }
}

export class HttpError extends Error {
  readonly status: number;
  readonly expose: boolean;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(status: number, message?: string, options: HttpErrorOptions = {}) {
    assertErrorStatus(status);
    super(message ?? statusText(status), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.expose = options.expose ?? status < 500;
    this.details = options.details;
    this.headers = options.headers === undefined ? undefined : { ...options.headers };
  }
}

Object.defineProperty(HttpError.prototype, HTTP_ERROR_BRAND, { value: true });

export function isHttpError(value: unknown): value is HttpError {
  if (value instanceof HttpError) return true;
  return (
    isRecord(value) &&
    HTTP_ERROR_BRAND in value &&
    value[HTTP_ERROR_BRAND] === true &&
    typeof value['status'] === 'number'
  );
}

export function createHttpError(status: number, message?: string, options?: HttpErrorOptions): HttpError {
  return new HttpError(status, message, options);
}

function factoryFor(status: number): HttpErrorFactory {
  return (message, options) => new HttpError(status, message, options);
}

export const badRequest = factoryFor(400);
export const unauthorized = factoryFor(401);
export const forbidden = factoryFor(403);
export const notFound = factoryFor(404);
export const notAcceptable = factoryFor(406);
export const conflict = factoryFor(409);
export const preconditionFailed = factoryFor(412);
export const payloadTooLarge = factoryFor(413);
export const unsupportedMediaType = factoryFor(415);
export const unprocessableEntity = factoryFor(422);
export const locked = factoryFor(423);
export const internalServerError = factoryFor(500);
export const serviceUnavailable = factoryFor(503);

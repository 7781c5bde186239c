import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';

import { HttpError, notFound, statusText } from './http-error';
import { isRecord, readProperty, readString } from './guards';
import { toHttpError } from './to-http-error';

/** Pino-compatible subset: `logger.error({ ...fields }, 'message')`. */
export type LogFn = (fields: Record<string, unknown>, message?: string) => void;

export interface ErrorLogger {
  error: LogFn;
  warn: LogFn;
}

export interface ErrorHandlerOptions {
  /** Builds the response body from the client-visible error. */
  formatBody: (error: HttpError, req: Request) => unknown;
  /** Writes the response; defaults to `res.status(error.status).json(body)`. */
  send?: (req: Request, res: Response, error: HttpError, body: unknown) => void;
  /** Status for request-validation (zod) failures; 400 by default. */
  validationStatus?: 400 | 422;
  /** Used when the request carries no `req.log` (a pino logger of its own); console otherwise. */
  logger?: ErrorLogger;
}

interface ErrorSummary {
  name?: string;
  message: string;
  code?: string;
  type?: string;
  stack?: string;
  cause?: ErrorSummary;
}

const MAX_LOGGED_CAUSES = 3;

/** The message of the line a client error (4xx) is logged with: its status and the message the client got. */
export const REQUEST_REJECTED = 'request rejected';

const consoleLogger: ErrorLogger = {
  error: (fields, message) => console.error(message, fields),
  warn: (fields, message) => console.warn(message, fields),
};

function defaultSend(_req: Request, res: Response, error: HttpError, body: unknown): void {
  res.status(error.status).json(body);
}

function isLogger(value: unknown): value is ErrorLogger {
  return isRecord(value) && typeof value['error'] === 'function' && typeof value['warn'] === 'function';
}

function loggerFor(req: Request, fallback: ErrorLogger | undefined): ErrorLogger {
  const requestLogger = readProperty(req, 'log');
  if (isLogger(requestLogger)) return requestLogger;
  return fallback ?? consoleLogger;
}

/**
 * Picks loggable fields by hand: whole error objects can carry the raw request body
 * (body-parser's `error.body`), query parameters or credentials.
 */
function summarize(error: unknown, depth = 0): ErrorSummary {
  if (!isRecord(error)) return { message: String(error) };
  const code = readProperty(error, 'code');
  const cause = readProperty(error, 'cause');
  return {
    name: readString(error, 'name'),
    message: readString(error, 'message') ?? '(no message)',
    code: typeof code === 'string' || typeof code === 'number' ? String(code) : undefined,
    // body-parser's error type, or a Prisma driver adapter's error kind.
    type: readString(error, 'type') ?? readString(error, 'kind'),
    stack: readString(error, 'stack'),
    cause: cause !== undefined && depth < MAX_LOGGED_CAUSES ? summarize(cause, depth + 1) : undefined,
  };
}

function requestFields(req: Request): Record<string, unknown> {
  const id = readProperty(req, 'id');
  return {
    requestId: typeof id === 'string' || typeof id === 'number' ? id : undefined,
    method: req.method,
    // Without the query string: it may hold tokens.
    path: req.originalUrl.split('?')[0],
  };
}

function logFailure(logger: ErrorLogger, original: unknown, error: HttpError, req: Request): void {
  if (error.status >= 500) {
    logger.error({ ...requestFields(req), status: error.status, err: summarize(original) }, 'request failed');
    return;
  }
  // Client errors: the mapped (body-free) message, never the original error.
  logger.warn(
    {
      ...requestFields(req),
      status: error.status,
      message: error.message,
      type: readString(original, 'type'),
    },
    REQUEST_REJECTED,
  );
}

/** What the client may see: unexposed errors keep their status and headers but lose message and details. */
function clientVisible(error: HttpError): HttpError {
  if (error.expose) return error;
  return new HttpError(error.status, statusText(error.status), { headers: error.headers, expose: false });
}

function setHeaders(res: Response, headers: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
}

/** Express error middleware: maps any error to an HttpError, logs it, and sends `formatBody`'s body. */
export function createErrorHandler(options: ErrorHandlerOptions): ErrorRequestHandler {
  const send = options.send ?? defaultSend;
  return function httpErrorHandler(err: unknown, req, res, next) {
    // Too late to send an error response; Express's final handler closes the connection.
    if (res.headersSent) {
      next(err);
      return;
    }
    const error = toHttpError(err, { validationStatus: options.validationStatus });
    logFailure(loggerFor(req, options.logger), err, error, req);
    const visible = clientVisible(error);
    setHeaders(res, visible.headers);
    send(req, res, visible, options.formatBody(visible, req));
  };
}

/** Mount after all routes and before the error handler: unmatched requests become 404 "route not found". */
export function routeNotFound(): RequestHandler {
  return (_req, _res, next) => next(notFound('route not found'));
}

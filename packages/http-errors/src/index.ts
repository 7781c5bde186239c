export {
  HttpError,
  type HttpErrorFactory,
  type HttpErrorOptions,
  badRequest,
  conflict,
  createHttpError,
  forbidden,
  internalServerError,
  isHttpError,
  locked,
  notAcceptable,
  notFound,
  payloadTooLarge,
  preconditionFailed,
  serviceUnavailable,
  statusText,
  unauthorized,
  unprocessableEntity,
  unsupportedMediaType,
} from './http-error';
export { isForeignKeyConstraintViolation, isUniqueConstraintViolation } from './database';
export { toHttpError, type ToHttpErrorOptions } from './to-http-error';
export { RETRY_AFTER_SECONDS } from './unavailable';
export type { ValidationIssue } from './validation';
export {
  createErrorHandler,
  REQUEST_REJECTED,
  routeNotFound,
  type ErrorHandlerOptions,
  type ErrorLogger,
  type LogFn,
} from './error-handler';

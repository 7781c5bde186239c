import {
  HttpError,
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
  unauthorized,
  unprocessableEntity,
  unsupportedMediaType,
} from '../src';

describe('HttpError', () => {
  test('exposes client errors and hides server errors by default', () => {
    expect(new HttpError(404).expose).toBe(true);
    expect(new HttpError(499).expose).toBe(true);
    expect(new HttpError(500).expose).toBe(false);
    expect(new HttpError(503, 'down', { expose: true }).expose).toBe(true);
  });

  test('keeps message, details, headers and cause', () => {
    const cause = new Error('root');
    const error = new HttpError(401, 'token expired', {
      details: { reason: 'expired' },
      headers: { 'WWW-Authenticate': 'Bearer' },
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('HttpError');
    expect(error.status).toBe(401);
    expect(error.message).toBe('token expired');
    expect(error.details).toEqual({ reason: 'expired' });
    expect(error.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(error.cause).toBe(cause);
  });

  test('rejects statuses that are not errors', () => {
    expect(() => new HttpError(200)).toThrow(RangeError);
    expect(() => createHttpError(600)).toThrow(RangeError);
    expect(() => createHttpError(404.5)).toThrow(RangeError);
  });

  test('named constructors use their status and status text', () => {
    const cases: [HttpError, number, string][] = [
      [badRequest(), 400, 'bad request'],
      [unauthorized(), 401, 'unauthorized'],
      [forbidden(), 403, 'forbidden'],
      [notFound(), 404, 'not found'],
      [notAcceptable(), 406, 'not acceptable'],
      [conflict(), 409, 'conflict'],
      [preconditionFailed(), 412, 'precondition failed'],
      [payloadTooLarge(), 413, 'payload too large'],
      [unsupportedMediaType(), 415, 'unsupported media type'],
      [unprocessableEntity(), 422, 'unprocessable entity'],
      [locked(), 423, 'locked'],
      [internalServerError(), 500, 'internal server error'],
      [serviceUnavailable(), 503, 'service unavailable'],
    ];
    for (const [error, status, message] of cases) {
      expect({ status: error.status, message: error.message }).toEqual({ status, message });
    }
  });

  test('createHttpError builds any error status', () => {
    const error = createHttpError(429, undefined, { headers: { 'Retry-After': '30' } });
    expect(error.status).toBe(429);
    expect(error.message).toBe('too many requests');
    expect(error.headers).toEqual({ 'Retry-After': '30' });
  });
});

describe('isHttpError', () => {
  test('recognises HttpErrors and nothing else', () => {
    expect(isHttpError(notFound())).toBe(true);
    expect(isHttpError(new Error('plain'))).toBe(false);
    expect(isHttpError({ status: 404, message: 'not found' })).toBe(false);
    expect(isHttpError(null)).toBe(false);
  });

  test('recognises errors from a second copy of the module', () => {
    let foreignError: unknown;
    jest.isolateModules(() => {
      // A fresh module registry stands in for a duplicated copy in node_modules.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const copy = require('../src/http-error') as typeof import('../src/http-error');
      foreignError = copy.conflict('taken');
    });
    expect(foreignError).not.toBeInstanceOf(HttpError);
    expect(isHttpError(foreignError)).toBe(true);
  });
});

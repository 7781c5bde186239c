import multer from 'multer';
import { z } from 'zod';
import * as zm from 'zod/mini';

import { RETRY_AFTER_SECONDS, notFound, toHttpError } from '../src';
import {
  DriverAdapterError,
  PrismaClientInitializationError,
  PrismaClientKnownRequestError,
  adapterUniqueViolation,
  connectionRefused,
  recordNotFound,
} from './fixtures';

function zodError(schema: z.ZodType, input: unknown): z.ZodError {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the schema to reject the input');
  return result.error;
}

describe('toHttpError', () => {
  test('returns HttpErrors unchanged', () => {
    const error = notFound('no such repo');
    expect(toHttpError(error)).toBe(error);
  });

  test('unknown errors become an unexposed 500 keeping the original as cause', () => {
    const original = new Error('password=hunter2 rejected by upstream');
    const error = toHttpError(original);
    expect(error.status).toBe(500);
    expect(error.message).toBe('internal server error');
    expect(error.expose).toBe(false);
    expect(error.cause).toBe(original);
  });

  test('non-Error throwables become a 500', () => {
    expect(toHttpError('boom').status).toBe(500);
    expect(toHttpError(undefined).status).toBe(500);
  });

  test('exposed jshttp-style client errors keep their status and message', () => {
    const sendError = Object.assign(new Error('Not Found'), { status: 404, statusCode: 404, expose: true });
    expect(toHttpError(sendError)).toMatchObject({ status: 404, message: 'Not Found' });
  });

  test('errors with a status but no expose flag are not trusted', () => {
    // e.g. an HTTP client error carrying an upstream response status.
    const upstream = Object.assign(new Error('Request failed with status code 404'), { status: 404 });
    expect(toHttpError(upstream).status).toBe(500);
  });
});

describe('toHttpError: malformed paths', () => {
  // What Express's router throws for /orgs/%ZZ.
  const routerUriError = () => {
    const error = new URIError("Failed to decode param '%ZZ'");
    return Object.assign(error, { status: 400 });
  };

  test("the router's URIError is the validation status with a message that does not quote the path", () => {
    expect(toHttpError(routerUriError())).toMatchObject({ status: 400, expose: true });
    expect(toHttpError(routerUriError()).message).not.toContain('%ZZ');
    expect(toHttpError(routerUriError(), { validationStatus: 422 }).status).toBe(422);
  });

  test("a URIError without the router's status stays a 500 (the app threw it, not the client)", () => {
    expect(toHttpError(new URIError('URI malformed')).status).toBe(500);
  });
});

describe('toHttpError: body-parser errors', () => {
  const bodyParserError = (type: string, status: number, extra: object = {}) =>
    Object.assign(new Error(`${type} happened`), {
      type,
      status,
      statusCode: status,
      expose: status < 500,
      ...extra,
    });

  test('request.aborted → 400', () => {
    expect(toHttpError(bodyParserError('request.aborted', 400))).toMatchObject({
      status: 400,
      message: 'request aborted',
    });
  });

  test('encoding.unsupported → 415', () => {
    expect(toHttpError(bodyParserError('encoding.unsupported', 415)).status).toBe(415);
  });

  test('other 4xx types keep their status', () => {
    expect(toHttpError(bodyParserError('request.size.invalid', 400))).toMatchObject({
      status: 400,
      message: 'request.size.invalid happened',
    });
  });

  test('5xx types are internal errors', () => {
    expect(toHttpError(bodyParserError('stream.encoding.set', 500))).toMatchObject({
      status: 500,
      message: 'internal server error',
    });
  });

  test('the raw body never travels along as cause', () => {
    const error = toHttpError(bodyParserError('entity.parse.failed', 400, { body: '{"password":"hunter2"' }));
    expect(error).toMatchObject({ status: 400, message: 'malformed request body' });
    expect(error.cause).toBeUndefined();
  });
});

describe('toHttpError: multer and busboy errors', () => {
  test('size limits → 413', () => {
    for (const code of [
      'LIMIT_FILE_SIZE',
      'LIMIT_FIELD_VALUE',
      'LIMIT_PART_COUNT',
      'LIMIT_FILE_COUNT',
    ] as const) {
      expect(toHttpError(new multer.MulterError(code, 'avatar')).status).toBe(413);
    }
  });

  test('other multer errors → 400', () => {
    expect(toHttpError(new multer.MulterError('MISSING_FIELD_NAME'))).toMatchObject({
      status: 400,
      message: 'field name missing',
    });
  });

  test('busboy "Malformed part header" → 400', () => {
    expect(toHttpError(new Error('Malformed part header'))).toMatchObject({
      status: 400,
      message: 'malformed request body: malformed part header',
    });
  });
});

describe('toHttpError: zod errors', () => {
  const repoSchema = z
    .object({
      slug: z.string().regex(/^[a-z][a-z0-9-]*$/),
      name: z.string().min(3).max(10),
      private: z.boolean(),
      topics: z.array(z.string().length(2)).max(2),
      visibility: z.enum(['public', 'private']),
      email: z.email(),
      owner: z.object({ id: z.number().int().positive() }),
      password: z.string().refine((value) => value.length > 12, 'password too weak'),
    })
    .strict();

  test('names each failing field and rule, joined with "; "', () => {
    const error = toHttpError(
      zodError(repoSchema, {
        slug: 'Bad Slug',
        name: 'ab',
        topics: ['abc'],
        visibility: 'secret',
        email: 'nope',
        owner: { id: -1 },
        password: 'short',
        extra: true,
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message.split('; ')).toEqual([
      'slug: must match ^[a-z][a-z0-9-]*$',
      'name: must be at least 3 characters',
      'private: is required',
      'topics[0]: must be exactly 2 characters',
      'visibility: must be one of "public", "private"',
      'email: must be a valid email',
      'owner.id: must be greater than 0',
      'password: password too weak',
      'unrecognized keys: extra',
    ]);
  });

  test('details list path, message and code without the rejected input', () => {
    const schema = z.object({ name: z.string() });
    const result = schema.safeParse({ name: 42 }, { reportInput: true });
    const error = toHttpError(result.error);
    expect(error.details).toEqual([
      { path: ['name'], message: 'Invalid input: expected string, received number', code: 'invalid_type' },
    ]);
    expect(error.cause).toBeUndefined();
  });

  test('validationStatus 422 is honoured', () => {
    const error = toHttpError(zodError(z.object({ name: z.string() }), {}), { validationStatus: 422 });
    expect(error).toMatchObject({ status: 422, message: 'name: is required' });
  });

  test('zod/mini errors ($ZodError) are recognised', () => {
    const result = zm.object({ name: zm.string() }).safeParse({ name: 1 });
    expect(toHttpError(result.error)).toMatchObject({ status: 400, message: 'name: expected string' });
  });
});

describe('toHttpError: Prisma errors', () => {
  test('P2002 names meta.target fields', () => {
    const error = toHttpError(
      new PrismaClientKnownRequestError('Unique constraint failed', {
        code: 'P2002',
        meta: { target: ['email'] },
      }),
    );
    expect(error).toMatchObject({ status: 409, message: 'resource with the same email already exists' });
    expect(error.details).toEqual({ fields: ['email'] });
  });

  test('P2002 through a driver adapter names the constraint fields, unquoted', () => {
    const error = toHttpError(adapterUniqueViolation(['"ownerId"', 'name']));
    expect(error).toMatchObject({
      status: 409,
      message: 'resource with the same ownerId, name already exists',
    });
  });

  test('P2002 without field information', () => {
    const error = new PrismaClientKnownRequestError('Unique constraint failed', {
      code: 'P2002',
      meta: {
        driverAdapterError: new DriverAdapterError({
          kind: 'UniqueConstraintViolation',
          constraint: { index: 'Repo_ownerId_name_key' },
        }),
      },
    });
    expect(toHttpError(error)).toMatchObject({ status: 409, message: 'resource already exists' });
  });

  test('P2025 → 404', () => {
    expect(toHttpError(recordNotFound())).toMatchObject({ status: 404, message: 'record not found' });
  });

  test('P2003 foreign key violation → 409', () => {
    const error = new PrismaClientKnownRequestError('Foreign key constraint violated', { code: 'P2003' });
    expect(toHttpError(error).status).toBe(409);
  });

  test('P2034 write conflict → 409', () => {
    const error = new PrismaClientKnownRequestError('Transaction failed due to a write conflict', {
      code: 'P2034',
    });
    expect(toHttpError(error).status).toBe(409);
  });

  test('raw query SQLSTATE in meta.code → 409', () => {
    const error = new PrismaClientKnownRequestError('Raw query failed. Code: `23505`.', {
      code: 'P2010',
      meta: { code: '23505', message: 'duplicate key value violates unique constraint' },
    });
    expect(toHttpError(error).status).toBe(409);
  });

  test('raw query through an adapter: SQLSTATE in cause.originalCode → 409', () => {
    const error = new PrismaClientKnownRequestError('Database error. Code: `40001`.', {
      code: 'P2039',
      meta: {
        driverAdapterError: new DriverAdapterError({
          kind: 'postgres',
          code: '40001',
          originalCode: '40001',
        }),
      },
    });
    expect(toHttpError(error).status).toBe(409);
  });

  test('a bare DriverAdapterError with SQLSTATE 23503 → 409', () => {
    const error = new DriverAdapterError({ kind: 'ForeignKeyConstraintViolation', originalCode: '23503' });
    expect(toHttpError(error).status).toBe(409);
  });

  const dataException = (code: string) =>
    new PrismaClientKnownRequestError(`Database error. Code: \`${code}\`.`, {
      code: 'P2010',
      meta: { driverAdapterError: new DriverAdapterError({ kind: 'postgres', code, originalCode: code }) },
    });

  test('a NUL character the database cannot store (SQLSTATE 22021) → 400 naming the character', () => {
    expect(toHttpError(dataException('22021'))).toMatchObject({
      status: 400,
      expose: true,
      message: 'request contains a NUL character (U+0000), which is not accepted',
    });
  });

  test("node-postgres's own error (a statement run straight on pg) is classified by its SQLSTATE", () => {
    // What pg-protocol's DatabaseError carries: the message, `severity` and `code` from the server.
    const refused = (code: string, message: string) =>
      Object.assign(new Error(message), { name: 'error', severity: 'ERROR', code });
    expect(toHttpError(refused('22021', 'invalid byte sequence for encoding "UTF8": 0x00'))).toMatchObject({
      status: 400,
      message: 'request contains a NUL character (U+0000), which is not accepted',
    });
    expect(toHttpError(refused('22P02', 'invalid input syntax for type uuid')).status).toBe(400);
    // A code without the server's severity is not a SQLSTATE (a system error's code, say).
    expect(toHttpError(Object.assign(new Error('x'), { code: '22021' })).status).toBe(500);
  });

  test("any other data exception (SQLSTATE class 22) is the client's value → validationStatus", () => {
    expect(toHttpError(dataException('22003')).status).toBe(400);
    expect(toHttpError(dataException('22P02'), { validationStatus: 422 }).status).toBe(422);
  });

  test('other Prisma codes are internal errors', () => {
    const error = new PrismaClientKnownRequestError('value too long', { code: 'P2000' });
    expect(toHttpError(error)).toMatchObject({ status: 500, expose: false });
  });
});

describe('toHttpError: unavailable dependencies → 503 with Retry-After', () => {
  const unavailable = {
    status: 503,
    message: 'service unavailable',
    expose: false,
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  };

  test('P1001 initialization error', () => {
    const error = new PrismaClientInitializationError("Can't reach database server", '7.10.0', 'P1001');
    const mapped = toHttpError(error);
    expect(mapped).toMatchObject(unavailable);
    expect(mapped.cause).toBe(error);
  });

  test('P1017 known request error', () => {
    const error = new PrismaClientKnownRequestError('Server has closed the connection.', { code: 'P1017' });
    expect(toHttpError(error)).toMatchObject(unavailable);
  });

  test('driver adapter DatabaseNotReachable', () => {
    const error = new DriverAdapterError({ kind: 'DatabaseNotReachable', host: 'db', port: 5432 });
    expect(toHttpError(error)).toMatchObject(unavailable);
  });

  test('driver adapter ConnectionClosed inside a raw query error', () => {
    const error = new PrismaClientKnownRequestError('Raw query failed.', {
      code: 'P2010',
      meta: { driverAdapterError: new DriverAdapterError({ kind: 'ConnectionClosed' }) },
    });
    expect(toHttpError(error)).toMatchObject(unavailable);
  });

  test.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND'])('socket error %s', (code) => {
    expect(toHttpError(Object.assign(new Error(code), { code }))).toMatchObject(unavailable);
  });

  test('socket error nested in causes', () => {
    expect(toHttpError(connectionRefused())).toMatchObject(unavailable);
  });

  test('causes deeper than a few levels are not searched', () => {
    let error: Error = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    for (let level = 0; level < 6; level += 1) error = new Error(`wrapper ${level}`, { cause: error });
    expect(toHttpError(error).status).toBe(500);
  });
});

import express, { type Request } from 'express';
import multer from 'multer';
import request from 'supertest';
import { z } from 'zod';

import {
  type ErrorHandlerOptions,
  type ErrorLogger,
  type HttpError,
  createErrorHandler,
  routeNotFound,
  serviceUnavailable,
  unauthorized,
} from '../src';
import { adapterUniqueViolation, connectionRefused, recordNotFound } from './fixtures';

const SECRET = 'hunter2-do-not-echo';

/** project-service's body shape. */
const projectServiceBody = (error: HttpError) => ({ code: String(error.status), message: error.message });

function recordingLogger(): ErrorLogger & { error: jest.Mock; warn: jest.Mock } {
  return { error: jest.fn(), warn: jest.fn() };
}

interface TestAppOptions extends Partial<ErrorHandlerOptions> {
  /** Thrown by GET /throw. */
  thrown?: unknown;
  /** Middleware run first, e.g. to attach req.id / req.log. */
  before?: express.RequestHandler;
}

/** A small app with the real parsers, so the errors under test are the ones the libraries raise. */
function testApp(options: TestAppOptions = {}) {
  const { thrown, before, ...handlerOptions } = options;
  const app = express();
  if (before) app.use(before);

  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 16 } });
  const repoSchema = z.object({ slug: z.string().regex(/^[a-z]+$/) });

  app.post('/json', express.json({ limit: '100b' }), (req, res) => {
    res.json({ received: req.body as unknown });
  });
  app.post('/repos', express.json(), (req, res) => {
    res.status(201).json(repoSchema.parse(req.body));
  });
  app.post('/avatar', upload.single('avatar'), (req, res) => {
    res.json({ size: req.file?.size });
  });
  app.get('/orgs/:name', (req, res) => {
    res.json({ name: req.params['name'] });
  });
  app.get('/throw', () => {
    throw thrown;
  });
  app.get('/partial', (_req, res) => {
    res.status(200).write('partial');
    throw new Error('failed mid-stream');
  });

  app.use(routeNotFound());
  app.use(
    createErrorHandler({ formatBody: projectServiceBody, logger: recordingLogger(), ...handlerOptions }),
  );
  return app;
}

describe('request body errors', () => {
  test('malformed JSON → 400 without echoing the raw body, in the response or the logs', async () => {
    const logger = recordingLogger();
    const response = await request(testApp({ logger }))
      .post('/json')
      .set('Content-Type', 'application/json')
      .send(`{"password":"${SECRET}"`)
      .expect(400);

    expect(response.body).toEqual({ code: '400', message: 'malformed request body' });
    expect(response.text).not.toContain(SECRET);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain(SECRET);
    expect(logger.warn.mock.calls[0]?.[0]).toMatchObject({ status: 400, type: 'entity.parse.failed' });
  });

  test('body over the express.json limit → 413', async () => {
    const response = await request(testApp())
      .post('/json')
      .send({ padding: 'x'.repeat(200) })
      .expect(413);

    expect(response.body).toEqual({ code: '413', message: 'request body too large (limit 100 bytes)' });
  });

  test('unsupported charset → 415', async () => {
    const response = await request(testApp())
      .post('/json')
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{"a":1}')
      .expect(415);

    expect(response.body).toEqual({ code: '415', message: 'unsupported charset' });
  });

  test('unsupported content encoding → 415', async () => {
    const response = await request(testApp())
      .post('/json')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'x-unknown')
      .send('{"a":1}')
      .expect(415);

    expect(response.body).toEqual({ code: '415', message: 'unsupported content encoding' });
  });
});

describe('multipart errors', () => {
  test('multer file too large → 413', async () => {
    const response = await request(testApp())
      .post('/avatar')
      .attach('avatar', Buffer.alloc(64), 'avatar.png')
      .expect(413);

    expect(response.body).toEqual({ code: '413', message: 'file too large: avatar' });
  });

  test('unexpected file field → 400 naming the field', async () => {
    const response = await request(testApp())
      .post('/avatar')
      .attach('banner', Buffer.alloc(4), 'banner.png')
      .expect(400);

    expect(response.body).toEqual({ code: '400', message: 'unexpected file field: banner' });
  });

  test('truncated multipart body (busboy "Unexpected end of form") → 400', async () => {
    const response = await request(testApp())
      .post('/avatar')
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nhello')
      .expect(400);

    expect(response.body).toEqual({ code: '400', message: 'malformed request body: unexpected end of form' });
  });
});

describe('validation errors', () => {
  test('zod → 400 naming the field path and rule', async () => {
    const response = await request(testApp()).post('/repos').send({ slug: 'Not A Slug' }).expect(400);

    expect(response.body).toEqual({ code: '400', message: 'slug: must match ^[a-z]+$' });
  });

  test('zod with validationStatus 422 → 422', async () => {
    const response = await request(testApp({ validationStatus: 422 }))
      .post('/repos')
      .send({})
      .expect(422);

    expect(response.body).toEqual({ code: '422', message: 'slug: is required' });
  });
});

describe('malformed paths', () => {
  // The router decodes :name with decodeURIComponent; its URIError says status 400 but not expose.
  test.each(['%ZZ', '%FF', '%C0%AF', '%', 'ok%E0%A4%A'])(
    'a badly percent-encoded segment (%s) → 400 with the error body, logged as a warning without the path',
    async (segment) => {
      const logger = recordingLogger();
      const response = await request(testApp({ logger })).get(`/orgs/${segment}`).expect(400);

      expect(response.body).toEqual({
        code: '400',
        message: 'malformed path: a segment is not valid percent-encoded UTF-8',
      });
      expect(logger.error).not.toHaveBeenCalled();
      expect(logger.warn.mock.calls[0]?.[0]).toMatchObject({ status: 400 });
      expect(JSON.stringify(logger.warn.mock.calls[0]?.[0])).not.toContain('stack');
    },
  );

  test('with validationStatus 422 → 422', async () => {
    const response = await request(testApp({ validationStatus: 422 }))
      .get('/orgs/%ZZ')
      .expect(422);

    expect(response.body).toEqual({
      code: '422',
      message: 'malformed path: a segment is not valid percent-encoded UTF-8',
    });
  });

  test('a well-encoded segment still reaches the route', async () => {
    const response = await request(testApp()).get('/orgs/a%20b').expect(200);
    expect(response.body).toEqual({ name: 'a b' });
  });
});

describe('database errors', () => {
  test('Prisma P2002 unique violation → 409', async () => {
    const response = await request(testApp({ thrown: adapterUniqueViolation(['ownerId', 'name']) }))
      .get('/throw')
      .expect(409);

    expect(response.body).toEqual({
      code: '409',
      message: 'resource with the same ownerId, name already exists',
    });
  });

  test('Prisma P2025 record not found → 404', async () => {
    const response = await request(testApp({ thrown: recordNotFound() }))
      .get('/throw')
      .expect(404);

    expect(response.body).toEqual({ code: '404', message: 'record not found' });
  });

  test('ECONNREFUSED nested in causes → 503 with Retry-After, logged as an error', async () => {
    const logger = recordingLogger();
    const response = await request(testApp({ thrown: connectionRefused(), logger }))
      .get('/throw')
      .expect(503)
      .expect('Retry-After', '5');

    expect(response.body).toEqual({ code: '503', message: 'service unavailable' });
    expect(logger.error.mock.calls[0]?.[0]).toMatchObject({
      status: 503,
      err: { message: 'loading repository settings failed', cause: { cause: { code: 'ECONNREFUSED' } } },
    });
  });
});

describe('internal errors', () => {
  test('unknown error → 500 without the internal message; the logger gets the original', async () => {
    const logger = recordingLogger();
    const internal = new Error(`query failed for password ${SECRET}`);
    const app = testApp({
      thrown: internal,
      logger,
      before: (req, _res, next) => {
        Object.assign(req, { id: 'req-42' });
        next();
      },
    });

    const response = await request(app).get('/throw?token=abc').expect(500);

    expect(response.body).toEqual({ code: '500', message: 'internal server error' });
    expect(response.text).not.toContain(SECRET);
    expect(logger.error).toHaveBeenCalledWith(
      {
        requestId: 'req-42',
        method: 'GET',
        path: '/throw',
        status: 500,
        err: expect.objectContaining({ name: 'Error', message: internal.message, stack: internal.stack }),
      },
      'request failed',
    );
  });

  test('unexposed HttpErrors keep status and headers but not their message or details', async () => {
    const thrown = serviceUnavailable('replica lag on db-3', {
      details: { replica: 'db-3' },
      headers: { 'Retry-After': '120' },
    });
    const response = await request(testApp({ thrown }))
      .get('/throw')
      .expect(503)
      .expect('Retry-After', '120');

    expect(response.body).toEqual({ code: '503', message: 'service unavailable' });
  });

  test("the request's own req.log is preferred over the configured logger", async () => {
    const configured = recordingLogger();
    const requestLogger = recordingLogger();
    const app = testApp({
      thrown: new Error('boom'),
      logger: configured,
      before: (req, _res, next) => {
        Object.assign(req, { log: requestLogger });
        next();
      },
    });

    await request(app).get('/throw').expect(500);

    expect(requestLogger.error).toHaveBeenCalledTimes(1);
    expect(configured.error).not.toHaveBeenCalled();
  });
});

describe('error handler behaviour', () => {
  test('HttpError headers are set on the response', async () => {
    const thrown = unauthorized('token expired', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
    const response = await request(testApp({ thrown }))
      .get('/throw')
      .expect(401)
      .expect('WWW-Authenticate', 'Bearer error="invalid_token"');

    expect(response.body).toEqual({ code: '401', message: 'token expired' });
  });

  test('unmatched routes → 404 "route not found"', async () => {
    const response = await request(testApp()).get('/nowhere').expect(404);

    expect(response.body).toEqual({ code: '404', message: 'route not found' });
  });

  test('once headers are sent, the error is delegated to next()', async () => {
    const formatBody = jest.fn(projectServiceBody);
    const delegated: unknown[] = [];
    const app = testApp({ formatBody });
    // Runs after the handler under test: records what it delegated and finishes the response.
    app.use((err: unknown, _req: Request, res: express.Response, _next: express.NextFunction) => {
      delegated.push(err);
      res.end();
    });

    const response = await request(app).get('/partial').expect(200);

    expect(response.text).toBe('partial');
    expect(delegated).toEqual([new Error('failed mid-stream')]);
    expect(formatBody).not.toHaveBeenCalled();
  });

  test('custom formatBody (Gitea {message, url}) is used', async () => {
    const formatBody = (error: HttpError, req: Request) => ({
      message: error.message,
      url: `https://git.example.com/api/swagger#${req.method}`,
    });
    const response = await request(testApp({ thrown: recordNotFound(), formatBody }))
      .get('/throw')
      .expect(404);

    expect(response.body).toEqual({
      message: 'record not found',
      url: 'https://git.example.com/api/swagger#GET',
    });
  });

  test('custom send writes the response (XML)', async () => {
    const send: ErrorHandlerOptions['send'] = (_req, res, error, body) => {
      const { code, message } = body as { code: string; message: string };
      res
        .status(error.status)
        .type('application/xml')
        .send(`<error><code>${code}</code><message>${message}</message></error>`);
    };
    const response = await request(testApp({ thrown: recordNotFound(), send }))
      .get('/throw')
      .expect(404)
      .expect('Content-Type', /application\/xml/);

    expect(response.text).toBe('<error><code>404</code><message>record not found</message></error>');
  });
});

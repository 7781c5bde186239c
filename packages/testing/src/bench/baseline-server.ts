/**
 * The server around an app's baseline handler: node:http and a pg pool with named statements,
 * nothing else: the stack's limit for the same work. An app's
 * bench/baseline/server.ts calls serveBaseline; the bench starts it as
 * `node --import tsx bench/baseline/server.ts` with the service's environment (PORT,
 * DATABASE_URL, and what the handler reads), DATABASE_POOL_MAX (10, as the services).
 *
 * BASELINE_LAYER puts the service's own layers around the same handler, one at a time, so the
 * bench can say where the gap between the limit and the service is (http-bench.ts's layers):
 * `express` serves it from an Express 5 app (its router, its request and response objects made as
 * the service's server makes them, the body read by express.raw), `observed` adds the app's per-request observation before it (request
 * id, access log, metrics: `layers.observe`, wrapping the app as the service does).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import express, { type Express } from 'express';
import { Pool } from 'pg';

/** Runs one statement; pg in the bench, a test database's connection in an identity test. */
export type Query = <Row = Record<string, unknown>>(sql: string, parameters: unknown[]) => Promise<Row[]>;

export interface BaselineRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface BaselineResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export type BaselineHandler = (request: BaselineRequest) => Promise<BaselineResponse>;

/** The app's own layers, for BASELINE_LAYER=express and observed. */
export interface BaselineLayers {
  /** The app's listener under the service's per-request observation (request id, access log, metrics). */
  observe(app: Express): http.RequestListener;
  /** The options the service's server is created with for its Express app (both Express layers). */
  serverOptions(app: Express): http.ServerOptions;
}

/** The body limit of the Express layers: more than any bench request. */
const BODY_LIMIT = '1mb';

/**
 * Listens on PORT (127.0.0.1) with the handler `create` makes over the pool; stops on SIGTERM.
 * `internalError` is the JSON body of a 500 (the app's error shape).
 */
export function serveBaseline(
  create: (query: Query) => BaselineHandler,
  internalError: string,
  layers?: BaselineLayers,
): void {
  const pool = new Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.DATABASE_POOL_MAX ?? 10),
  });
  // Named (prepared) statements: PostgreSQL parses and plans each text once per connection, then
  // only executes it. The limit the services are measured against (their hot statements are named
  // too: each app's src/db/prepared-statements.ts).
  const names = new Map<string, string>();
  const nameOf = (sql: string) => {
    let name = names.get(sql);
    if (name === undefined) {
      name = `baseline_${createHash('sha256').update(sql).digest('base64url').slice(0, 16)}`;
      names.set(sql, name);
    }
    return name;
  };
  const handle = create(
    async (sql, parameters) => (await pool.query({ name: nameOf(sql), text: sql, values: parameters })).rows,
  );

  const answer = (request: BaselineRequest, res: http.ServerResponse) =>
    handle(request).then(
      (response) => {
        res.writeHead(response.status, {
          ...response.headers,
          'content-length': String(Buffer.byteLength(response.body)),
        });
        res.end(response.body);
      },
      (error: unknown) => {
        console.error(error);
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(internalError);
      },
    );

  const layer = process.env.BASELINE_LAYER ?? '';
  let listener: http.RequestListener;
  let serverOptions: http.ServerOptions = {};
  if (layer === 'express' || layer === 'observed') {
    if (!layers) throw new Error(`BASELINE_LAYER=${layer} needs the app's layers`);
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use(express.raw({ type: () => true, limit: BODY_LIMIT }));
    app.use((req, res) => {
      const body: unknown = req.body;
      void answer(
        {
          method: req.method,
          url: req.originalUrl,
          headers: req.headers,
          body: Buffer.isBuffer(body) ? body : Buffer.alloc(0),
        },
        res,
      );
    });
    listener = layer === 'observed' ? layers.observe(app) : app;
    serverOptions = layers.serverOptions(app);
  } else if (layer === '') {
    listener = (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void answer(
          {
            method: req.method ?? 'GET',
            url: req.url ?? '/',
            headers: req.headers,
            body: Buffer.concat(chunks),
          },
          res,
        );
      });
    };
  } else {
    throw new Error(`BASELINE_LAYER: unknown layer ${layer}`);
  }
  const server = http.createServer(serverOptions, listener);

  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void pool.end();
  });
}

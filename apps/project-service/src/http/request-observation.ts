import type { IncomingMessage, RequestListener, ServerOptions, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { LOGGER_REQUEST_ID, type Logger } from '../logger';
import { redactedRequest, type SerializedRequest } from '../log-secrets';
import { expressServerOptions } from './express-server';
import { captureRouteTemplates, recordRequest, routeTemplateOf } from './metrics';
import { requestId } from './request-id';

// What every request costs in observability, in one hook: its id, its logger, its access-log line
// and its two metrics (count and duration), all taken from one listener when it ends. The access
// line and the request's logger are only built when something is logged: at LOG_LEVEL=warn, a
// request that succeeds serializes nothing. (pino-http did this with a child logger per request,
// its request serialized at once whatever the level: 0.3 ms of CPU per request, twice what the
// whole request costs the stack.) The hook wraps the app rather than being its first middleware,
// and `req.log` and the route template are accessors of the app's request prototype, not of each
// request: a middleware layer of Express 5 and two accessors defined per request cost 0.03–0.04 ms
// of CPU per request here, more than the rest of the observation together.

declare module 'http' {
  interface IncomingMessage {
    /** The request's id (X-Request-Id): the caller's when sane, else a new one. */
    id: string;
    /** The request's logger: every line carries the request (redacted) and its id. */
    log: Logger;
  }
}

/** How a request is written into its log lines. */
export type RequestSerializer = (req: SerializedRequest) => SerializedRequest;

export interface RequestObservationOptions {
  logger: Logger;
  /** Paths polled by Kubernetes and Prometheus: counted, never written to the access log. */
  quietPaths: readonly string[];
  /** The `req` of the log lines; what pino's standard serializer gives, redacted, when not given. */
  serializeRequest?: RequestSerializer;
}

type ExpressRequest = IncomingMessage & {
  originalUrl?: string;
  query?: unknown;
  params?: unknown;
};

/** pino's standard fields of a request (pino-std-serializers), before the app's own serializer. */
function requestFields(req: ExpressRequest): SerializedRequest {
  return {
    id: req.id,
    method: req.method,
    url: req.originalUrl ?? req.url,
    query: req.query,
    params: req.params,
    headers: req.headers,
    remoteAddress: req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

const REQUEST_LOGGER = Symbol('request logger');

/** The observed app's request listener, with the options of the server to give it. */
export type ObservedApp = RequestListener & {
  /** For http.createServer: requests and responses made as the app's (express-server.ts). */
  readonly serverOptions: ServerOptions;
};

/**
 * The app's request listener (what http.createServer, with its `serverOptions`, and supertest are
 * given): names each request
 * (X-Request-Id), gives it `req.log`, hands it to the app, and once it has ended (answered, or its
 * connection gone) counts and times it and writes its access line: `request completed` (info),
 * `request errored` (error, for a 5xx) or `request aborted` (warn, when the client went away
 * before the answer was out).
 */
export function observeRequests(
  app: Express,
  { logger, quietPaths, serializeRequest = redactedRequest }: RequestObservationOptions,
): ObservedApp {
  const serialized = (req: ExpressRequest) => serializeRequest(requestFields(req));
  // Its lines carry the request's id whether or not a request context is kept (request-context.ts).
  const requestLoggerOf = (req: ExpressRequest): Logger =>
    Object.assign(logger.child({ req: serialized(req) }), { [LOGGER_REQUEST_ID]: req.id });
  // Express gives each request of the app this prototype before any middleware runs.
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    enumerable: false,
    get(this: ExpressRequest & { [REQUEST_LOGGER]?: Logger }) {
      return (this[REQUEST_LOGGER] ??= requestLoggerOf(this));
    },
  });
  captureRouteTemplates(app.request);
  const listener: RequestListener = (req, res) => {
    const started = process.hrtime.bigint();
    req.id = requestId(req, res);
    res.on('close', () => ended(req, res, started));
    app(req, res);
  };
  return Object.assign(listener, { serverOptions: expressServerOptions(app) });

  function ended(req: ExpressRequest, res: ServerResponse, started: bigint): void {
    const elapsed = Number(process.hrtime.bigint() - started);
    recordRequest(req.method ?? '', routeTemplateOf(req), res.statusCode, elapsed / 1e9);
    const finished = res.writableFinished;
    const level = !finished ? 'warn' : res.statusCode >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level) || quietPaths.includes(req.url ?? '')) return;
    const fields = {
      request_id: req.id,
      req: serialized(req),
      res: { statusCode: res.statusCode, headers: res.getHeaders() },
      responseTime: Math.round(elapsed / 1e6),
    };
    const message = !finished
      ? 'request aborted'
      : level === 'error'
        ? 'request errored'
        : 'request completed';
    logger[level](fields, message);
  }
}

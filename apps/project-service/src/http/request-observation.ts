import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { LOGGER_REQUEST_ID, type Logger } from '../logger';
import { redactedRequest, type SerializedRequest } from '../log-secrets';
import { recordRequest, routeTemplateCapture } from './metrics';
import { requestId } from './request-id';

// What every request costs in observability, in one hook: its id, its logger, its access-log line
// and its two metrics (count and duration), all taken from one listener when it ends. The access
// line and the request's logger are only built when something is logged: at LOG_LEVEL=warn, a
// request that succeeds serializes nothing. (pino-http did this with a child logger per request,
// its request serialized at once whatever the level: 0.3 ms of CPU per request, twice what the
// whole request costs the stack.)

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

/**
 * The first middleware of an app: names the request (X-Request-Id), gives it `req.log`, and once
 * it has ended (answered, or its connection gone) counts and times it and writes its access line:
 * `request completed` (info), `request errored` (error, for a 5xx) or `request aborted` (warn,
 * when the client went away before the answer was out).
 */
export function observeRequests({
  logger,
  quietPaths,
  serializeRequest = redactedRequest,
}: RequestObservationOptions): RequestHandler {
  const serialized = (req: ExpressRequest) => serializeRequest(requestFields(req));
  // Its lines carry the request's id whether or not a request context is kept (request-context.ts).
  const requestLoggerOf = (req: ExpressRequest): Logger =>
    Object.assign(logger.child({ req: serialized(req) }), { [LOGGER_REQUEST_ID]: req.id });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    req.id = requestId(req, res);
    let requestLogger: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      enumerable: false,
      get: () => (requestLogger ??= requestLoggerOf(req)),
    });
    const template = routeTemplateCapture(req);
    res.once('close', () => ended(req, res, started, template()));
    next();
  };

  function ended(req: ExpressRequest, res: ServerResponse, started: bigint, route: string): void {
    const elapsed = Number(process.hrtime.bigint() - started);
    recordRequest(req.method ?? '', route, res.statusCode, elapsed / 1e9);
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

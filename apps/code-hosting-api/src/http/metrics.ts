// Generated from apps/project-service/src/http/metrics.ts by `npm run sync:copies`: edit that file, not this copy.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Router } from 'express';
import { Counter, Histogram } from 'prom-client';
import { registry } from '../metrics/registry';

// The HTTP requests' metrics, and GET /metrics serving the registry (src/metrics/registry.ts).

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request arriving to its response finishing, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/** Label for requests no route matched: raw paths would be unbounded. */
export const UNMATCHED_ROUTE = '(unmatched)';

const ROUTE = Symbol('route');
const ROUTE_TEMPLATE = Symbol('route template');

type TemplatedRequest = IncomingMessage & {
  baseUrl?: string;
  [ROUTE]?: unknown;
  [ROUTE_TEMPLATE]?: string;
};

/**
 * Makes the requests of an app note their route template (`/items/:id`) when one matches: `req.route`
 * becomes an accessor of the app's request prototype (Express's `app.request`). Express sets
 * `req.route` when a route matches, while `req.baseUrl` is still the mount path of its router; an
 * error handled further out sees `baseUrl` reset, so the template is taken then. On the prototype,
 * once, and not on each request: an accessor defined on an object of its own gives it a shape no
 * other request shares, and every later read of the request's properties pays for it.
 */
export function captureRouteTemplates(requestPrototype: object): void {
  Object.defineProperty(requestPrototype, 'route', {
    configurable: true,
    enumerable: true,
    get(this: TemplatedRequest) {
      return this[ROUTE];
    },
    set(this: TemplatedRequest, value: unknown) {
      this[ROUTE] = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') this[ROUTE_TEMPLATE] = `${this.baseUrl ?? ''}${path}`;
    },
  });
}

/** The route template a request matched (captureRouteTemplates), never its raw path. */
export function routeTemplateOf(req: IncomingMessage): string {
  return (req as TemplatedRequest)[ROUTE_TEMPLATE] ?? UNMATCHED_ROUTE;
}

interface RequestSeries {
  count: { inc(): void };
  duration: { observe(seconds: number): void };
}

/**
 * The two series of each method, route template and status, made on first use: labelling a
 * metric hashes its labels at every call, once per series is enough. Route templates and statuses
 * are few, so the map stays small.
 */
const requestSeries = new Map<string, RequestSeries>();

/** Counts and times one answered request (request-observation.ts calls it as the request ends). */
export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  const key = `${method} ${status} ${route}`;
  let series = requestSeries.get(key);
  if (!series) {
    const labels = { method, route, status: String(status) };
    series = { count: httpRequests.labels(labels), duration: httpRequestDuration.labels(labels) };
    requestSeries.set(key, series);
  }
  series.count.inc();
  series.duration.observe(seconds);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics` in Prometheus's text format, outside the public routes' authentication; with a
 * token configured, only `Authorization: Bearer <token>` reads it.
 */
export function metricsRoute(token?: string): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    if (token !== undefined) {
      const given = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!sameSecret(given, token)) {
        res.status(401).setHeader('WWW-Authenticate', 'Bearer').json({ status: 'metrics token required' });
        return;
      }
    }
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
  return router;
}

// Generated from apps/project-service/src/http/metrics.ts by `npm run sync:copies`: edit that file, not this copy.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Router } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/database';

/**
 * The service's Prometheus metrics, one registry per process (module state: prom-client's
 * metrics are process-wide, and several apps built in one test process share them).
 * Service-specific metrics live beside this file and register here too.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

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

const queryDuration = new Histogram({
  name: 'db_query_duration_seconds',
  help: "Database statements' duration as Prisma reports it, by statement kind",
  labelNames: ['statement'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
  registers: [registry],
});

let poolStats: () => PoolStats | undefined = () => undefined;

function poolGauge(name: string, help: string, read: (stats: PoolStats) => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const stats = poolStats();
      if (stats) this.set(read(stats));
    },
  });
}

poolGauge('db_pool_connections', 'PostgreSQL connections open (idle and in use)', (stats) => stats.total);
poolGauge('db_pool_idle_connections', 'PostgreSQL connections open and idle', (stats) => stats.idle);
poolGauge(
  'db_pool_waiting_requests',
  'Queries waiting for a free PostgreSQL connection',
  (stats) => stats.waiting,
);
poolGauge('db_pool_max_connections', 'Most PostgreSQL connections the pool opens', (stats) => stats.max);

/** Where the pool gauges read from (the database main.ts opened); PGlite has no pool and reports none. */
export function observeDatabasePool(database: { poolStats(): PoolStats | undefined }): void {
  poolStats = () => database.poolStats();
}

const STATEMENT_KINDS = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'WITH',
]);

/** The first keyword of a statement, past the mark of a named one (`/* prepared: name *\/ WITH …`). */
const FIRST_KEYWORD = /^\s*(?:\/\*[^*]*\*\/\s*)?(\w+)/;

/** connectPrisma's query observer: the statement's first keyword keeps the label set small. */
export function recordQuery(sql: string, durationMs: number): void {
  const keyword = FIRST_KEYWORD.exec(sql)?.[1]?.toUpperCase() ?? '';
  queryDuration.observe({ statement: STATEMENT_KINDS.has(keyword) ? keyword : 'OTHER' }, durationMs / 1000);
}

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

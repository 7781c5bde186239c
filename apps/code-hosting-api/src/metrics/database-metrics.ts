// Generated from apps/project-service/src/metrics/database-metrics.ts by `npm run sync:copies`: edit that file, not this copy.
import { Gauge, Histogram } from 'prom-client';
import type { PoolStats } from '../db/database';
import { registry } from './registry';

// The database's metrics: each statement's duration by kind, and the pool's counts.

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

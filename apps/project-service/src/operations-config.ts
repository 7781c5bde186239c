import { z } from 'zod';
import type { DatabaseLimits } from './db/database';
import { DEFAULT_MIGRATION_TIMEOUT_MS } from './db/migrate';

const milliseconds = (fallback: number) => z.coerce.number().int().min(0).max(3_600_000).default(fallback);
const positiveMilliseconds = (fallback: number) =>
  z.coerce.number().int().min(1).max(3_600_000).default(fallback);

/**
 * The variables of running the service (server timeouts, shutdown, database bounds, metrics),
 * spread into config.ts's environment schema; the same in both services.
 */
export const operationsEnvironmentShape = {
  // Whole request, body included: a client that never finishes sending is cut off after it.
  HTTP_REQUEST_TIMEOUT_MS: positiveMilliseconds(60_000),
  // Request line and headers.
  HTTP_HEADERS_TIMEOUT_MS: positiveMilliseconds(10_000),
  // An idle keep-alive connection; longer than the gateway's own idle timeout (60 s), so the gateway closes first.
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveMilliseconds(65_000),
  // After SIGTERM: readiness is 503 and the server keeps serving this long, so load balancers stop routing here.
  SHUTDOWN_DRAIN_MS: milliseconds(5_000),
  // Then: no new connections; requests in flight get this long to finish before their connections are cut.
  SHUTDOWN_GRACE_MS: milliseconds(10_000),
  DATABASE_CONNECT_TIMEOUT_MS: positiveMilliseconds(3_000),
  DATABASE_STATEMENT_TIMEOUT_MS: positiveMilliseconds(6_000),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_READINESS_TIMEOUT_MS: positiveMilliseconds(2_000),
  // PostgreSQL: the whole migration step of a start (or of the migrate command), waiting for another
  // replica's migration lock included; past it the process exits 1 saying what it waited for.
  MIGRATION_TIMEOUT_MS: positiveMilliseconds(DEFAULT_MIGRATION_TIMEOUT_MS),
  // When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
};

export type OperationsEnvironment = z.infer<z.ZodObject<typeof operationsEnvironmentShape>>;

export interface ServerTimeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export interface ShutdownSettings {
  drainMs: number;
  graceMs: number;
}

export interface OperationsSettings {
  server: ServerTimeouts;
  shutdown: ShutdownSettings;
  database: DatabaseLimits;
  /** The bound on the migration step (PostgreSQL). */
  migrationTimeoutMs: number;
  metricsToken?: string;
}

/** Settings that contradict each other, as `VARIABLE: rule` (empty when they agree). */
export function operationsProblems(env: OperationsEnvironment): string[] {
  return [
    ...(env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS
      ? ['HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS']
      : []),
    ...(env.DATABASE_READINESS_TIMEOUT_MS > env.DATABASE_STATEMENT_TIMEOUT_MS
      ? ['DATABASE_READINESS_TIMEOUT_MS: must not exceed DATABASE_STATEMENT_TIMEOUT_MS']
      : []),
  ];
}

export function toOperationsSettings(env: OperationsEnvironment): OperationsSettings {
  return {
    server: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    shutdown: { drainMs: env.SHUTDOWN_DRAIN_MS, graceMs: env.SHUTDOWN_GRACE_MS },
    database: {
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      poolMax: env.DATABASE_POOL_MAX,
      readinessTimeoutMs: env.DATABASE_READINESS_TIMEOUT_MS,
    },
    migrationTimeoutMs: env.MIGRATION_TIMEOUT_MS,
    metricsToken: env.METRICS_TOKEN,
  };
}

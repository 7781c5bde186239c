import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { Pool } from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient, type Prisma } from '../generated/prisma/client';
import { BoundStatement, statementName } from './prepared-statements';

/**
 * Where the data lives: a PostgreSQL server, or embedded PGlite (an instance
 * the caller owns, a folder it persists to, or memory when neither is given).
 */
export type DatabaseSource = { kind: 'postgres'; url: string } | { kind: 'pglite'; pglite: PGlite };

export type DatabaseLocation = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir?: string };

/** A statement of src/db: built with Prisma.sql, or fixed once (prepared-statements.ts). */
export type Statement = Prisma.Sql | BoundStatement;

/** Runs one statement and gives its rows: Database.query, or statementsOf() a transaction. */
export type RunStatement = <Row>(statement: Statement) => Promise<Row[]>;

/** A RunStatement on a Prisma client or transaction (a statement inside a transaction goes through it). */
export function statementsOf(client: Prisma.TransactionClient): RunStatement {
  return <Row>(statement: Statement) =>
    statement instanceof BoundStatement
      ? client.$queryRawUnsafe<Row[]>(statement.text, ...statement.values)
      : client.$queryRaw<Row[]>(statement);
}

export interface Database {
  prisma: PrismaClient;
  source: DatabaseSource;
  /**
   * Runs one statement on its own (no transaction), for the hottest reads: on PostgreSQL straight
   * on the pool's pg client, without Prisma's query engine (prepared once per connection when
   * marked, as prepared-statements.ts names it); on PGlite through Prisma. Observed like Prisma's
   * own statements (`onQuery`). Rows come as pg parses them: a bigint (count(*), a BIGINT
   * column) may be a string here and a BigInt through Prisma, so read it with Number().
   */
  query: RunStatement;
  /** True when the database answers a trivial query within the readiness timeout. */
  isReady(): Promise<boolean>;
  /** The PostgreSQL connection pool's counts; undefined on PGlite (no pool). */
  poolStats(): PoolStats | undefined;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open (idle and in use). */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** Most connections the pool opens. */
  max: number;
}

/** Bounds on every wait for PostgreSQL, so an unreachable or frozen server fails fast (503) instead of hanging. */
export interface DatabaseLimits {
  /** Opening a connection, or waiting for a free one in the pool. */
  connectTimeoutMs: number;
  /** One statement: PostgreSQL's statement_timeout, and the client's own read timeout (a frozen server answers nothing). */
  statementTimeoutMs: number;
  /** Connections in the pool. */
  poolMax: number;
  /** The readiness probe's own bound, shorter than the statement timeout. */
  readinessTimeoutMs: number;
}

/**
 * With these, no request waits more than 10 s for the database before its 503: a connection (pool
 * wait or connect, 3 s), then a statement (6 s, plus the client's 1 s read margin when the server
 * is frozen and cannot cancel it). operations-config.ts has the same defaults.
 */
export const defaultDatabaseLimits: DatabaseLimits = {
  connectTimeoutMs: 3000,
  statementTimeoutMs: 6000,
  poolMax: 10,
  readinessTimeoutMs: 2000,
};

/** Client-side margin past statement_timeout: the server's own cancel (57014) should normally win. */
export const READ_TIMEOUT_MARGIN_MS = 1000;

function createPool(url: string, limits: DatabaseLimits): Pool {
  const pool = new Pool({
    connectionString: url,
    max: limits.poolMax,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    statement_timeout: limits.statementTimeoutMs,
    query_timeout: limits.statementTimeoutMs + READ_TIMEOUT_MARGIN_MS,
    // No JIT compilation: the services' statements are short, and a plan whose estimate crosses
    // jit_above_cost (a deep page of a big list, with its count) spent 16-23 ms compiling, more than
    // it then ran. Sent at connection start, like statement_timeout (behind PgBouncer, list
    // `options` in its ignore_startup_parameters, or set jit = off on the database instead).
    options: '-c jit=off',
    // A partitioned server is noticed on idle connections too.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // A connection the server ends (a restart, a failover, an administrator) is an 'error' event
  // on the pool, which discards that client; unheard, the event would end the process. Prisma's
  // adapter listens only while connected, so the pool gets a listener of its own for its lifetime.
  pool.on('error', () => {});
  // Between the pool handing a client out and Prisma's adapter listening on it (the adapter awaits
  // pool.connect() first), nobody listens: a server's FATAL read with the connection's "ready" (a
  // connection ended as it opens) would end the process. Every client gets a listener for its
  // lifetime; the statement it was to run fails (503) and the pool drops the client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** The schema engine's connections; on PostgreSQL named `applicationName` in pg_stat_activity. */
export function migrationAdapterFactory(
  source: DatabaseSource,
  applicationName?: string,
): SqlMigrationAwareDriverAdapterFactory {
  return source.kind === 'postgres'
    ? new PrismaPg({ connectionString: source.url, application_name: applicationName })
    : new PrismaPGlite(source.pglite);
}

/** Opens the location's database (creating a PGlite folder when needed); the result owns it. */
export async function openDatabaseAt(
  location: DatabaseLocation,
): Promise<{ source: DatabaseSource; close(): Promise<void> }> {
  if (location.kind === 'postgres') return { source: location, close: async () => {} };
  if (location.dataDir) await mkdir(location.dataDir, { recursive: true });
  const pglite = new PGlite(location.dataDir);
  await pglite.waitReady;
  return { source: { kind: 'pglite', pglite }, close: () => pglite.close() };
}

export interface ConnectOptions {
  /** Runs after the client is closed (closing what the caller opened for it). */
  onClose?: () => Promise<void>;
  /**
   * Called with each statement's SQL, duration and parameters (a JSON array, made when asked for)
   * as it runs: metrics time queries, tests count round trips and explain the statements' plans.
   */
  onQuery?: (sql: string, durationMs: number, params: () => string) => void;
  /** Timeouts and pool size on PostgreSQL (PGlite is in-process: nothing to bound). */
  limits?: Partial<DatabaseLimits>;
}

/** BigInt parameters as Prisma's query event writes them: their decimal string. */
function jsonOfBigInt(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

export function connectPrisma(source: DatabaseSource, options: ConnectOptions = {}): Database {
  const { onClose = async () => {}, onQuery } = options;
  const limits = { ...defaultDatabaseLimits, ...options.limits };
  const pool = source.kind === 'postgres' ? createPool(source.url, limits) : undefined;
  // The pool is ours (closed below), so its stats can be read; the adapter only borrows it.
  const adapter = pool
    ? new PrismaPg(pool, { statementNameGenerator: statementName })
    : migrationAdapterFactory(source);
  const prisma = onQuery
    ? new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] })
    : new PrismaClient({ adapter });
  if (onQuery) {
    (prisma as PrismaClient<'query'>).$on('query', (event) =>
      onQuery(event.query, event.duration, () => event.params),
    );
  }
  const query: RunStatement = pool
    ? async <Row>(statement: Statement): Promise<Row[]> => {
        const { text, values } = statement;
        const name =
          statement instanceof BoundStatement ? statement.name : statementName({ sql: statement.text });
        const started = onQuery ? performance.now() : 0;
        const result = await pool.query(name ? { name, text, values } : { text, values });
        onQuery?.(text, performance.now() - started, () => JSON.stringify(values, jsonOfBigInt));
        return result.rows as Row[];
      }
    : statementsOf(prisma);
  return {
    prisma,
    source,
    query,
    async isReady() {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), limits.readinessTimeoutMs);
      });
      const answered = prisma.$queryRaw`SELECT 1`.then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([answered, timedOut]);
      } finally {
        clearTimeout(timer);
      }
    },
    poolStats() {
      if (!pool) return undefined;
      return {
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: limits.poolMax,
      };
    },
    async close() {
      await prisma.$disconnect();
      if (pool && !pool.ended) await pool.end();
      await onClose();
    },
  };
}

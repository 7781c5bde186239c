// Generated from apps/project-service/src/db/migrate.ts by `npm run sync:copies`: edit that file, not this copy.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg' with {
  'resolution-mode': 'import',
};
import { Client } from 'pg';
import { migrationAdapterFactory, type DatabaseSource } from './database';
import { rollBackInterruptedIndexBuilds } from './interrupted-index-builds';
import { countWaiters, sessionName, withLockSession } from './migration-lock';
import { migrationsDir, withSchemaEngine } from './schema-engine';
import { explainConnectionFailure, refuseForeignTables, UnusableDatabaseError } from './unusable-database';
import { SERVICE_NAME } from '../service-name';

const noFilters = { externalTables: [], externalEnums: [] };
const lockfileName = 'migration_lock.toml';

/** The committed migrations, in the shape `prisma migrate deploy` reads them. */
export async function readMigrationList(dir = migrationsDir): Promise<MigrationList> {
  const entries = existsSync(dir) ? await readdir(dir, { withFileTypes: true }) : [];
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const lockfilePath = path.join(dir, lockfileName);
  return {
    baseDir: dir,
    lockfile: {
      path: lockfileName,
      content: existsSync(lockfilePath) ? await readFile(lockfilePath, 'utf8') : null,
    },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      folders.map(async (folder) => ({
        path: folder,
        migrationFile: {
          path: 'migration.sql',
          content: {
            tag: 'ok' as const,
            value: await readFile(path.join(dir, folder, 'migration.sql'), 'utf8'),
          },
        },
      })),
    ),
  };
}

/** MIGRATION_TIMEOUT_MS's default: the bound on one start's migration step on PostgreSQL. */
export const DEFAULT_MIGRATION_TIMEOUT_MS = 300_000;

/** After cancelling at the deadline, how long the engine gets to record the failure before the lock goes. */
const CANCEL_GRACE_MS = 5_000;
/** How often a runner about to drop an interrupted build's index looks again for builds still running. */
const INDEX_BUILD_POLL_MS = 200;

export interface ApplyOptions {
  /** The committed migrations' folder (tests apply others). */
  migrationsDir?: string;
  /**
   * On PostgreSQL, the bound on the whole step: waiting for another runner's lock, then applying.
   * Past it the step fails with a message saying what it waited for, and cancels what it ran.
   */
  timeoutMs?: number;
  /** Told, as a line for the log, what the step waits for or repairs on its way. */
  notice?: (message: string) => void;
}

export interface MigrationRunner {
  /**
   * Applies the pending committed migrations and records them in
   * `_prisma_migrations`, exactly as `prisma migrate deploy` does; first builds
   * again a concurrent index build an earlier run left unfinished
   * (interrupted-index-builds.ts). Returns the names of the migrations it
   * applied (none when up to date).
   */
  applyMigrations(source: DatabaseSource, options?: ApplyOptions): Promise<string[]>;
  /** Runs `task` while holding the migration lock of the database behind `source`. */
  withMigrationLock<T>(source: DatabaseSource, task: () => Promise<T>): Promise<T>;
  /**
   * How many runners are waiting for the lock right now (PostgreSQL: the sessions that say so in
   * pg_stat_activity, migration-lock.ts).
   */
  lockWaiters(source: DatabaseSource): Promise<number>;
}

/** Settles as `work` does, or with `late` once `deadline` (epoch ms) passes. */
async function byDeadline<T>(work: Promise<T>, deadline: number): Promise<{ value: T } | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.then((value) => ({ value })), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The migration runner of one service. `lockKey` is per service and distinct
 * from Prisma's own advisory lock key, so two replicas of one service
 * serialize while another service on the same server is unaffected.
 */
export function createMigrationRunner(lockKey: string): MigrationRunner {
  // One PGlite database is only ever open in one process: an in-process queue is the lock.
  const pgliteQueues = new WeakMap<object, Promise<unknown>>();
  const pgliteWaiters = new WeakMap<object, number>();

  async function withPgliteLock<T>(pglite: object, task: () => Promise<T>): Promise<T> {
    const previous = pgliteQueues.get(pglite) ?? Promise.resolve();
    pgliteWaiters.set(pglite, (pgliteWaiters.get(pglite) ?? 0) + 1);
    const run = previous
      .catch(() => undefined)
      .then(() => {
        pgliteWaiters.set(pglite, (pgliteWaiters.get(pglite) ?? 1) - 1);
        return task();
      });
    pgliteQueues.set(pglite, run);
    return run;
  }

  async function withClient<T>(
    url: string,
    task: (client: Client) => Promise<T>,
    applicationName?: string,
  ): Promise<T> {
    // Bounded: a server that never answers is reported at start-up instead of hanging it.
    const client = new Client({
      connectionString: url,
      connectionTimeoutMillis: 10_000,
      application_name: applicationName,
    });
    await client.connect();
    try {
      return await task(client);
    } finally {
      await client.end();
    }
  }

  async function withMigrationLock<T>(source: DatabaseSource, task: () => Promise<T>): Promise<T> {
    if (source.kind === 'pglite') return withPgliteLock(source.pglite, task);
    return withLockSession(source.url, lockKey, async (session) => {
      await session.acquire(Infinity);
      return task();
    });
  }

  async function lockWaiters(source: DatabaseSource): Promise<number> {
    // A runner counts from its request until its turn comes; the holder is not waiting.
    if (source.kind === 'pglite') return pgliteWaiters.get(source.pglite) ?? 0;
    return withClient(source.url, (client) => countWaiters(client, lockKey));
  }

  /**
   * Holding the lock: refuses another service's database, rolls back the interrupted index builds,
   * applies. On PostgreSQL every connection it opens is named `applyingName`.
   */
  async function migrate(
    source: DatabaseSource,
    migrationsList: MigrationList,
    notice: (message: string) => void,
    applyingName?: string,
    deadline = Infinity,
  ): Promise<string[]> {
    // Never into another service's database: refused before anything is written.
    refuseForeignTables(
      SERVICE_NAME,
      source.kind === 'postgres' ? source : { kind: 'pglite', dataDir: source.pglite.dataDir },
      await listTables(source),
    );
    const database = {
      async execute(sql: string) {
        if (source.kind === 'pglite') await source.pglite.exec(sql);
        else await withClient(source.url, (client) => client.query(sql), applyingName);
      },
      // PGlite is one process: no build of an earlier one goes on. On PostgreSQL, polled until the
      // deadline, past which the runner gives up anyway.
      async indexBuildsEnded() {
        if (source.kind === 'pglite') return;
        while (Date.now() < deadline && (await indexBuildsInProgress(source.url, applyingName)) > 0) {
          await new Promise((resolve) => setTimeout(resolve, INDEX_BUILD_POLL_MS));
        }
      },
    };
    return withSchemaEngine(migrationAdapterFactory(source, applyingName), async (engine) => {
      const rolledBack = await rollBackInterruptedIndexBuilds(engine, migrationsList, database);
      for (const { migration, index } of rolledBack) {
        notice(
          `${migration} did not finish on an earlier run: dropped its index ${index}, building it again`,
        );
      }
      const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: noFilters });
      return appliedMigrationNames;
    });
  }

  async function migrateOnPostgres(
    url: string,
    migrationsList: MigrationList,
    { timeoutMs = DEFAULT_MIGRATION_TIMEOUT_MS, notice = () => {} }: ApplyOptions,
  ): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    const exceeded = `migrations did not finish within ${timeoutMs} ms (MIGRATION_TIMEOUT_MS)`;
    return withLockSession(url, lockKey, async (session) => {
      const busy = async () => notice(`waiting for ${await session.describeHolder()}`);
      if (!(await session.acquire(deadline, busy))) {
        throw new UnusableDatabaseError(`${exceeded}: waited for ${await session.describeHolder()}`);
      }
      const source = { kind: 'postgres' as const, url };
      const applying = migrate(
        source,
        migrationsList,
        notice,
        sessionName(lockKey, 'applying', session.runner),
        deadline,
      );
      applying.catch(() => undefined);
      const outcome = await byDeadline(applying, deadline);
      if (outcome !== 'late') return outcome.value;
      const doing = await session.describeApplying();
      // Nothing of it goes on after this runner gives up (a cancelled index build is built again next time).
      await session.cancelApplying();
      await byDeadline(applying, Date.now() + CANCEL_GRACE_MS).catch(() => undefined);
      throw new UnusableDatabaseError(`${exceeded}: it was ${doing}; cancelled that`);
    });
  }

  async function applyMigrations(source: DatabaseSource, options: ApplyOptions = {}): Promise<string[]> {
    const migrationsList = await readMigrationList(options.migrationsDir);
    try {
      if (source.kind === 'postgres') return await migrateOnPostgres(source.url, migrationsList, options);
      return await withPgliteLock(source.pglite, () =>
        migrate(source, migrationsList, options.notice ?? (() => {})),
      );
    } catch (error) {
      throw (source.kind === 'postgres' ? explainConnectionFailure(source.url, error) : undefined) ?? error;
    }
  }

  /** The index builds (CREATE INDEX, plain or concurrent) running in the database now. */
  async function indexBuildsInProgress(url: string, applicationName?: string): Promise<number> {
    const { rows } = await withClient(
      url,
      (client) =>
        client.query<{ builds: number }>(
          `SELECT count(*)::int AS builds FROM pg_stat_progress_create_index
           WHERE datid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        ),
      applicationName,
    );
    return rows[0]?.builds ?? 0;
  }

  async function listTables(source: DatabaseSource): Promise<string[]> {
    const sql = 'SELECT tablename FROM pg_tables WHERE schemaname = current_schema()';
    const { rows } =
      source.kind === 'pglite'
        ? await source.pglite.query<{ tablename: string }>(sql)
        : await withClient(source.url, (client) => client.query<{ tablename: string }>(sql));
    return rows.map((row) => row.tablename);
  }

  return { applyMigrations, withMigrationLock, lockWaiters };
}

// Generated from apps/project-service/src/db/migrate.ts by `npm run sync:copies`: edit that file, not this copy.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg' with {
  'resolution-mode': 'import',
};
import { Client } from 'pg';
import { migrationAdapterFactory, type DatabaseSource } from './database';
import { migrationsDir, withSchemaEngine } from './schema-engine';
import { explainConnectionFailure, refuseForeignTables } from './unusable-database';
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

export interface MigrationRunner {
  /**
   * Applies the pending committed migrations and records them in
   * `_prisma_migrations`, exactly as `prisma migrate deploy` does.
   * Returns the names of the migrations it applied (none when up to date).
   */
  applyMigrations(source: DatabaseSource, options?: { migrationsDir?: string }): Promise<string[]>;
  /** Runs `task` while holding the migration lock of the database behind `source`. */
  withMigrationLock<T>(source: DatabaseSource, task: () => Promise<T>): Promise<T>;
  /** How many runners are waiting for the lock right now (PostgreSQL: as `pg_locks` shows them). */
  lockWaiters(source: DatabaseSource): Promise<number>;
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

  async function withClient<T>(url: string, task: (client: Client) => Promise<T>): Promise<T> {
    // Bounded: a server that never answers is reported at start-up instead of hanging it.
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      return await task(client);
    } finally {
      await client.end();
    }
  }

  async function withMigrationLock<T>(source: DatabaseSource, task: () => Promise<T>): Promise<T> {
    if (source.kind === 'pglite') return withPgliteLock(source.pglite, task);
    return withClient(source.url, async (client) => {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockKey]);
      try {
        return await task();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey]).catch(() => undefined);
      }
    });
  }

  async function lockWaiters(source: DatabaseSource): Promise<number> {
    if (source.kind === 'pglite') {
      // A runner counts from its request until its turn comes; the holder is not waiting.
      return pgliteWaiters.get(source.pglite) ?? 0;
    }
    // A bigint advisory key shows in pg_locks as classid (high 32 bits) and objid (low 32 bits).
    return withClient(source.url, async (client) => {
      const { rows } = await client.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_locks
         WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((classid::bigint << 32) | objid::bigint) = hashtext($1)::bigint`,
        [lockKey],
      );
      return rows[0]?.waiting ?? 0;
    });
  }

  async function applyMigrations(
    source: DatabaseSource,
    options: { migrationsDir?: string } = {},
  ): Promise<string[]> {
    const migrationsList = await readMigrationList(options.migrationsDir);
    try {
      return await withMigrationLock(source, async () => {
        // Never into another service's database: refused before anything is written.
        refuseForeignTables(
          SERVICE_NAME,
          source.kind === 'postgres' ? source : { kind: 'pglite', dataDir: source.pglite.dataDir },
          await listTables(source),
        );
        return withSchemaEngine(migrationAdapterFactory(source), async (engine) => {
          const { appliedMigrationNames } = await engine.applyMigrations({
            migrationsList,
            filters: noFilters,
          });
          return appliedMigrationNames;
        });
      });
    } catch (error) {
      throw (source.kind === 'postgres' ? explainConnectionFailure(source.url, error) : undefined) ?? error;
    }
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

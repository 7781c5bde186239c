import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg' with {
  'resolution-mode': 'import',
};
import { Client } from 'pg';
import { migrationAdapterFactory, type DatabaseSource } from './database';
import { migrationsDir, withSchemaEngine } from './schema-engine';

const noFilters = { externalTables: [], externalEnums: [] };
const lockfileName = 'migration_lock.toml';
// Distinct from Prisma's own advisory lock key, and per service, so two
// replicas of one service serialize while the other service is unaffected.
const migrationLockKey = 'code-hosting-api:migrations';

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

const pgliteLocks = new WeakMap<object, Promise<unknown>>();

/** Runs `task` while holding the migration lock of the database behind `source`. */
export async function withMigrationLock<T>(source: DatabaseSource, task: () => Promise<T>): Promise<T> {
  if (source.kind === 'pglite') {
    // One PGlite database is only ever open in one process: an in-process queue is the lock.
    const previous = pgliteLocks.get(source.pglite) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(task);
    pgliteLocks.set(source.pglite, run);
    return run;
  }
  const client = new Client({ connectionString: source.url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [migrationLockKey]);
    return await task();
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [migrationLockKey]).catch(() => undefined);
    await client.end();
  }
}

/**
 * Applies the pending committed migrations and records them in
 * `_prisma_migrations`, exactly as `prisma migrate deploy` does.
 * Returns the names of the migrations it applied (none when up to date).
 */
export async function applyMigrations(
  source: DatabaseSource,
  options: { migrationsDir?: string } = {},
): Promise<string[]> {
  const migrationsList = await readMigrationList(options.migrationsDir);
  return withMigrationLock(source, () =>
    withSchemaEngine(migrationAdapterFactory(source), async (engine) => {
      const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: noFilters });
      return appliedMigrationNames;
    }),
  );
}

// Generated from apps/project-service/src/db/create-migration.ts by `npm run sync:copies`: edit that file, not this copy.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { readMigrationList } from './migrate';
import { migrationsDir, schemaFile, withSchemaEngine } from './schema-engine';

const noFilters = { externalTables: [], externalEnums: [] };

function timestamp(now: Date): string {
  return now.toISOString().replace(/\D/g, '').slice(0, 14);
}

/** PGlite in memory for both the engine's connection and its shadow database; all closed afterwards. */
async function withThrowawayPglite<T>(task: (factory: PrismaPGlite) => Promise<T>): Promise<T> {
  const instances: PGlite[] = [];
  const open = () => {
    const pglite = new PGlite();
    instances.push(pglite);
    return pglite;
  };
  const factory = new PrismaPGlite(open());
  factory.connectToShadowDb = () => new PrismaPGlite(open()).connect();
  try {
    return await task(factory);
  } finally {
    await Promise.all(instances.map((pglite) => pglite.close()));
  }
}

/**
 * Writes the next migration: the SQL that takes a database from the committed
 * migrations to the current schema, found by replaying the migrations on a
 * throwaway shadow database. Returns the folder written, or undefined when the
 * schema has no changes.
 */
export async function createMigration(
  name: string,
  options: { migrationsDir?: string; schemaFile?: string; now?: Date } = {},
): Promise<string | undefined> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`migration name must match ^[a-z0-9_]+$ (got "${name}")`);
  const dir = options.migrationsDir ?? migrationsDir;
  const schemaPath = options.schemaFile ?? schemaFile;
  const migrationsList = await readMigrationList(dir);
  const schema = await readFile(schemaPath, 'utf8');
  const sql = await withThrowawayPglite((factory) =>
    withSchemaEngine(
      factory,
      async (engine) => {
        const result = await engine.diff({
          from:
            migrationsList.migrationDirectories.length > 0
              ? { tag: 'migrations', ...migrationsList }
              : { tag: 'empty' },
          to: { tag: 'schemaDatamodel', files: [{ path: path.basename(schemaPath), content: schema }] },
          script: true,
          exitCode: null,
          filters: noFilters,
        });
        return result.stdout?.trim() ?? '';
      },
      schemaPath,
    ),
  );
  if (sql === '' || sql === '-- This is an empty migration.') return undefined;
  const folder = path.join(dir, `${timestamp(options.now ?? new Date())}_${name}`);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'migration.sql'), `${sql}\n`);
  if (migrationsList.lockfile.content === null) {
    await writeFile(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  }
  return folder;
}

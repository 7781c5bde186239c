// Generated from apps/project-service/src/db/interrupted-index-builds.ts by `npm run sync:copies`: edit that file, not this copy.
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg' with {
  'resolution-mode': 'import',
};
import { UnusableDatabaseError } from './unusable-database';

const noFilters = { externalTables: [], externalEnums: [] };

/**
 * The index a migration builds when its whole script is one CREATE [UNIQUE] INDEX CONCURRENTLY on
 * a table of the search path, as written there (quoted or not); undefined for any other script.
 * Statements are split at semicolons, as the schema engine splits them.
 */
export function concurrentIndexOf(script: string): string | undefined {
  const statements = script
    .replace(/--[^\n]*/g, '')
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
  if (statements.length !== 1) return undefined;
  const identifier = '"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*';
  const create = new RegExp(
    `^CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+CONCURRENTLY\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(${identifier})\\s+ON\\s+(?:ONLY\\s+)?(?:${identifier})\\s*(?:USING\\s+\\w+\\s*)?\\(`,
    'i',
  );
  return create.exec(statements[0]!)?.[1];
}

/**
 * Prepares the migrations an earlier run left failed to be applied again. The engine calls a
 * migration failed when its script failed, and when it never finished (the process died, or was
 * stopped at its deadline, while it ran); it then applies nothing more. A lone concurrent index
 * build has one effect, its index, which an interrupted build leaves INVALID (or valid but
 * unrecorded, when its orphaned server backend finished the build after the process died): that
 * index is dropped concurrently once no index build is in progress in the database (such an orphaned
 * backend's build updates the index's catalog row as it goes on: a drop beside it failed with
 * "tuple concurrently updated"), and the
 * migration marked rolled back as `prisma migrate resolve --rolled-back` does, so applyMigrations
 * builds it again. Any other failed migration stops here, with a message saying what to do.
 * Resolves with the names of the migrations rolled back, each with its index.
 */
export async function rollBackInterruptedIndexBuilds(
  engine: SchemaEngine,
  migrationsList: MigrationList,
  database: {
    /** Runs one statement outside any transaction, as the runner's applying session. */
    execute(sql: string): Promise<void>;
    /** Resolves once no index is being built in the database (an orphaned build may still run). */
    indexBuildsEnded(): Promise<void>;
  },
): Promise<{ migration: string; index: string }[]> {
  const { failedMigrationNames } = await engine.diagnoseMigrationHistory({
    migrationsList,
    optInToShadowDatabase: false,
    filters: noFilters,
  });
  const rolledBack: { migration: string; index: string }[] = [];
  for (const migration of failedMigrationNames) {
    const file = migrationsList.migrationDirectories.find(
      (folder) => folder.path === migration,
    )?.migrationFile;
    const index = file?.content.tag === 'ok' ? concurrentIndexOf(file.content.value) : undefined;
    if (!index) {
      throw new UnusableDatabaseError(
        `cannot migrate: ${migration} failed on an earlier run and is not a lone CREATE INDEX CONCURRENTLY ` +
          '(the only kind applied again by itself); read why in the logs column of its row in ' +
          "_prisma_migrations, undo what it did, set that row's rolled_back_at (what `prisma migrate " +
          'resolve --rolled-back` does) and start again (README: Migrations with replicas running)',
      );
    }
    await database.indexBuildsEnded();
    await database.execute(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
    await engine.markMigrationRolledBack({ migrationName: migration });
    rolledBack.push({ migration, index });
  }
  return rolledBack;
}

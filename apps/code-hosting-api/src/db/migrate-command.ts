// Generated from apps/project-service/src/db/migrate-command.ts by `npm run sync:copies`: edit that file, not this copy.
import { loadConfig } from '../config';
import { openDatabaseAt } from './database';
import { migrationRunner } from './migration-runner';

// What a deployment's migration job runs: apply pending migrations, then exit.
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabaseAt(config.database);
  try {
    const applied = await migrationRunner.applyMigrations(database.source, {
      timeoutMs: config.operations.migrationTimeoutMs,
      notice: (message) => console.log(message),
    });
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

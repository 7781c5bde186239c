import { loadConfig } from './config';
import { sweepAttachmentStorage } from './attachment-sweep';
import { connectPrisma, openDatabaseAt } from './db/database';
import { migrationRunner } from './db/migration-runner';
import { createStore } from './db/store';
import { createStorage } from './storage/storage-config';

// `npm run attachments:sweep` (repository root): what start-up also runs, on demand (say, from a cron job).
// Exits 0 when nothing is missing, 1 when rows point at lost files (listed on standard error).
async function main(): Promise<number> {
  const config = loadConfig();
  const location = await openDatabaseAt(config.database);
  await migrationRunner.applyMigrations(location.source);
  const database = connectPrisma(location.source, { onClose: location.close });
  const storage = createStorage(config.attachments, config.dataDir);
  try {
    const report = await sweepAttachmentStorage(createStore(database), storage);
    for (const object of report.removed) {
      console.log(
        `removed ${object.temporary ? 'temporary ' : ''}object ${object.key} (${object.size} bytes, no row)`,
      );
    }
    for (const key of report.missing) console.error(`missing object for attachment ${key}`);
    console.log(`sweep done: ${report.removed.length} removed, ${report.missing.length} missing`);
    return report.missing.length === 0 ? 0 : 1;
  } finally {
    await storage.close();
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

// Generated from apps/project-service/src/db/create-migration-command.ts by `npm run sync:copies`: edit that file, not this copy.
import { createMigration } from './create-migration';

// Usage, at the repository root: npm run db:migration:create -- <app> <name>
async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name) {
    console.error('usage: db:migration:create <name>   (lower case, digits and _)');
    process.exit(2);
  }
  const folder = await createMigration(name);
  console.log(folder ? `wrote ${folder}/migration.sql` : 'the schema has no changes: no migration written');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';

// The apps may share only packages/http-errors and packages/testing, so each keeps its own copy
// of the database module, the migration runner, the probes, the request id and the bench harness. The copies must
// stay byte-identical: a fix made in one app and forgotten in the other fails here.
const APPS = ['project-service', 'code-hosting-api'];
const COPIED_FILES = [
  'src/db/database.ts',
  'src/db/migrate.ts',
  'src/db/schema-engine.ts',
  'src/db/create-migration.ts',
  'src/db/migrate-command.ts',
  'src/db/create-migration-command.ts',
  'src/http/request-id.ts',
  'src/http/health.ts',
  'src/http/metrics.ts',
  'src/http/docs/api-docs.ts',
  'src/lifecycle.ts',
  'src/logger.ts',
  'src/log-secrets.ts',
  'src/tracing.ts',
  'src/operations-config.ts',
  'src/db/unusable-database.ts',
  'test/unusable-database.test.ts',
  'test/configuration-table.test.ts',
  'src/types/webassembly.d.ts',
  'test/migrations.test.ts',
  'test/raw-http.ts',
  'test/database-limits.test.ts',
  'test/global-teardown.ts',
  'jest.config.js',
  'prisma.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
];

const appsDir = path.resolve(__dirname, '../../../apps');

describe('files copied between the apps', () => {
  it.each(COPIED_FILES)('%s is the same in every app', async (file) => {
    const [first, ...others] = await Promise.all(
      APPS.map((app) => readFile(path.join(appsDir, app, file), 'utf8')),
    );
    for (const [index, copy] of others.entries()) {
      expect({ app: APPS[index + 1], file, content: copy }).toEqual({
        app: APPS[index + 1],
        file,
        content: first,
      });
    }
  });
});

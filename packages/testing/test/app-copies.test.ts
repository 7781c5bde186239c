import { readFile } from 'node:fs/promises';
import path from 'node:path';

// The apps may share only packages/http-errors and packages/testing, so each keeps its own copy
// of these test and bench files. The copies must stay byte-identical: a fix made in one app and
// forgotten in the other fails here. (The runtime copies are generated: scripts/sync-copies.mjs.)
const APPS = ['project-service', 'code-hosting-api'];
const COPIED_FILES = [
  'test/unusable-database.test.ts',
  'test/configuration-table.test.ts',
  'test/migrations.test.ts',
  'test/raw-http.ts',
  'test/database-limits.test.ts',
  'test/global-teardown.ts',
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

import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import {
  databaseName,
  templateLocation,
  withClient,
  urlOfDatabase,
  type TestDatabaseSource,
} from './database-template';

export interface TestDatabase {
  source: TestDatabaseSource;
  /** Closes and removes the database; nothing of it survives the test file. */
  drop(): Promise<void>;
}

/**
 * A database of this test file's own: a copy of the migrated template, or,
 * with `empty: true`, one with no tables at all (for migration tests).
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const location = templateLocation();
  if (location.kind === 'postgres') {
    const name = databaseName(`t_${location.template.replace(/^tmpl_/, '')}`.slice(0, 40));
    const template = options.empty ? 'template0' : location.template;
    await withClient(location.serverUrl, (client) =>
      client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`),
    );
    return {
      source: { kind: 'postgres', url: urlOfDatabase(location.serverUrl, name) },
      drop: () =>
        withClient(location.serverUrl, (client) =>
          client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
        ).then(() => undefined),
    };
  }
  if (!options.empty && !location.snapshot) {
    throw new Error('no PGlite snapshot was prepared: is globalSetup configured?');
  }
  const pglite =
    options.empty || !location.snapshot
      ? new PGlite()
      : new PGlite({ loadDataDir: new Blob([await readFile(location.snapshot)]) });
  await pglite.waitReady;
  return { source: { kind: 'pglite', pglite }, drop: () => pglite.close() };
}

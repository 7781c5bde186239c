import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';

/** A database a test talks to: embedded PGlite, or a PostgreSQL server by URL. */
export type TestDatabaseSource = { kind: 'postgres'; url: string } | { kind: 'pglite'; pglite: PGlite };

/** The app's own migrate function; the harness never carries a copy of it. */
export type MigrateFunction = (source: TestDatabaseSource) => Promise<unknown>;

const snapshotVariable = 'TEST_PGLITE_SNAPSHOT';
const templateVariable = 'TEST_DATABASE_TEMPLATE';

/** PostgreSQL identifiers we create: lower case, digits and _, at most 63 bytes. */
export function databaseName(prefix: string): string {
  return `${prefix.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${randomBytes(5).toString('hex')}`.slice(
    0,
    63,
  );
}

/** The URL of `database` on the server `url` names. */
export function urlOfDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs `task` with one connection to `url`, closed afterwards. */
export async function withClient<T>(url: string, task: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

/**
 * Jest globalSetup: migrate one database for the whole run, so each test file
 * starts from a copy instead of migrating again. With DATABASE_URL set it is a
 * PostgreSQL template database; otherwise a PGlite data-directory snapshot.
 * The location reaches the test workers through an environment variable.
 */
export async function prepareDatabaseTemplate(options: {
  name: string;
  migrate: MigrateFunction;
}): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const template = databaseName(`tmpl_${options.name}`);
    await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${template}"`));
    await options.migrate({ kind: 'postgres', url: urlOfDatabase(serverUrl, template) });
    process.env[templateVariable] = template;
    return;
  }
  const pglite = new PGlite();
  try {
    await options.migrate({ kind: 'pglite', pglite });
    const snapshot = await pglite.dumpDataDir('none');
    const folder = await mkdtemp(path.join(os.tmpdir(), `${options.name}-db-`));
    const file = path.join(folder, 'snapshot.tar');
    await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
    process.env[snapshotVariable] = file;
  } finally {
    await pglite.close();
  }
}

/** Jest globalTeardown: remove what prepareDatabaseTemplate made. */
export async function dropDatabaseTemplate(): Promise<void> {
  const template = process.env[templateVariable];
  const serverUrl = process.env.DATABASE_URL;
  if (template && serverUrl) {
    await withClient(serverUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`),
    );
  }
  const snapshot = process.env[snapshotVariable];
  if (snapshot) await rm(path.dirname(snapshot), { recursive: true, force: true });
}

export function templateLocation():
  { kind: 'postgres'; serverUrl: string; template: string } | { kind: 'pglite'; snapshot?: string } {
  const serverUrl = process.env.DATABASE_URL;
  const template = process.env[templateVariable];
  if (serverUrl) {
    if (!template)
      throw new Error(
        'DATABASE_URL is set but no template database was prepared: is globalSetup configured?',
      );
    return { kind: 'postgres', serverUrl, template };
  }
  return { kind: 'pglite', snapshot: process.env[snapshotVariable] };
}

import { Client } from 'pg';
import type { TestDatabaseSource } from '../src';

/** A stand-in for an app's migrate function: one table. */
export async function migrateNotes(source: TestDatabaseSource): Promise<void> {
  await runSql(source, 'CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
}

export async function runSql<T = Record<string, unknown>>(
  source: TestDatabaseSource,
  sql: string,
): Promise<T[]> {
  if (source.kind === 'pglite') return (await source.pglite.query<T>(sql)).rows;
  const client = new Client({ connectionString: source.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

import { Client } from 'pg';
import type { TestDatabaseSource } from './database-template';

/** Runs one SQL statement on a test database and returns its rows (a fresh connection each call). */
export async function querySource<T = Record<string, unknown>>(
  source: TestDatabaseSource,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  if (source.kind === 'pglite') return (await source.pglite.query<T>(sql, parameters)).rows;
  const client = new Client({ connectionString: source.url });
  await client.connect();
  try {
    return (await client.query(sql, parameters)).rows as T[];
  } finally {
    await client.end();
  }
}

import { querySource, type TestDatabaseSource } from '../src';

/** A stand-in for an app's migrate function: one table. */
export async function migrateNotes(source: TestDatabaseSource): Promise<void> {
  await querySource(source, 'CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
}

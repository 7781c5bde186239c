import { createTestDatabase, type TestDatabase } from '../src';
import { querySource } from '../src';

const opened: TestDatabase[] = [];
afterAll(() => Promise.all(opened.map((database) => database.drop())));

async function open(options?: { empty?: boolean }) {
  const database = await createTestDatabase(options);
  opened.push(database);
  return database;
}

describe('createTestDatabase', () => {
  it('starts from the migrated template', async () => {
    const database = await open();
    expect(await querySource(database.source, 'SELECT count(*)::int AS count FROM notes')).toEqual([
      { count: 0 },
    ]);
  });

  it('gives each caller a database of its own', async () => {
    const [first, second] = await Promise.all([open(), open()]);
    await querySource(first.source, "INSERT INTO notes (text) VALUES ('only in the first')");
    expect(await querySource(first.source, 'SELECT text FROM notes')).toEqual([
      { text: 'only in the first' },
    ]);
    expect(await querySource(second.source, 'SELECT text FROM notes')).toEqual([]);
  });

  it('gives an empty database with no tables when asked', async () => {
    const database = await open({ empty: true });
    const tables = await querySource(
      database.source,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables).toEqual([]);
  });

  it('runs against the server named by DATABASE_URL when it is set, else PGlite', async () => {
    const database = await open();
    expect(database.source.kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
  });
});

import { createTestDatabase, querySource, sequentialScans, type TestDatabase } from '../src';

// sequentialScans, what each app's test/plans/ fails on: on a table big enough that PostgreSQL
// reads a few rows through an index, a lookup by an indexed column is clean, one by a column
// without an index reads the table whole, and tables not listed as growing are not reported.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await querySource(
    database.source,
    "INSERT INTO notes (text) SELECT 'note ' || i FROM generate_series(1, 20000) AS i",
  );
  await querySource(database.source, 'ANALYZE notes');
});
afterAll(() => database.drop());

describe('sequentialScans', () => {
  it('reports the statements that read a growing table whole, and explains the rest', async () => {
    const result = await sequentialScans(
      database.source,
      [
        { sql: 'SELECT text FROM notes WHERE id = $1', params: '[17]', by: 'by id' },
        { sql: 'SELECT id FROM notes\n  WHERE text = $1', params: '["note 17"]', by: 'by text' },
        { sql: 'BEGIN', params: '[]' },
        { sql: '/* prepared: note_count */ SELECT count(*) FROM notes WHERE id < $1', params: '[5]' },
      ],
      new Set(['notes']),
    );
    expect(result).toEqual({
      explained: 3,
      scans: [{ by: 'by text', sql: 'SELECT id FROM notes WHERE text = $1', tables: ['notes'] }],
    });
  });

  it('leaves out the tables that do not grow', async () => {
    const result = await sequentialScans(
      database.source,
      [{ sql: 'SELECT id FROM notes WHERE text = $1', params: '["note 17"]' }],
      new Set(['projects']),
    );
    expect(result).toEqual({ explained: 1, scans: [] });
  });
});

import { onlineMigrationProblems } from '../src';

// The rules describeMigrations holds every migration since ONLINE_MIGRATIONS_SINCE to.
describe('onlineMigrationProblems', () => {
  it('accepts a CONCURRENTLY index alone in its migration, and indexes on a table the migration creates', () => {
    expect(
      onlineMigrationProblems('-- why, in words\nCREATE INDEX CONCURRENTLY "a_b_idx" ON "a" ("b");\n'),
    ).toEqual([]);
    expect(
      onlineMigrationProblems(
        'CREATE TABLE "t" ("k" TEXT NOT NULL);\n\nCREATE INDEX "t_k_idx" ON "t"("k");\nCREATE UNIQUE INDEX "t_u" ON "t"("k");\n',
      ),
    ).toEqual([]);
    expect(onlineMigrationProblems('DROP INDEX CONCURRENTLY IF EXISTS "old_idx";')).toEqual([]);
  });

  it('names an index on an existing table built in one locking step', () => {
    expect(onlineMigrationProblems('CREATE INDEX "a_b_idx" ON "a"("b");')).toEqual([
      'an index on the existing table a is not built CONCURRENTLY: CREATE INDEX "a_b_idx" ON "a"("b")',
    ]);
    expect(onlineMigrationProblems('CREATE UNIQUE INDEX a_b ON ONLY a (b)')).toHaveLength(1);
  });

  it('names a CONCURRENTLY statement that shares its migration (it would run in a transaction)', () => {
    expect(
      onlineMigrationProblems(
        'ALTER TABLE "a" ADD COLUMN "c" INT;\nCREATE INDEX CONCURRENTLY "a_c" ON "a"("c");',
      ),
    ).toEqual(['a CONCURRENTLY statement shares its migration with 1 other(s)']);
  });

  it('names a semicolon in a comment (the engine splits the script there)', () => {
    expect(onlineMigrationProblems('-- built online; see README\nDROP INDEX CONCURRENTLY "x";')).toEqual([
      'a comment holds a semicolon',
    ]);
  });
});

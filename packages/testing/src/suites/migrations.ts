import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestDatabaseSource } from '../database-template';
import { querySource } from '../sql';
import { createTestDatabase, type TestDatabase } from '../test-database';

/** An app's own migration runner and migration writer; the suite carries no copy of either. */
export interface MigrationSubject {
  migrationsDir: string;
  schemaFile: string;
  applyMigrations(source: TestDatabaseSource, options?: { migrationsDir?: string }): Promise<string[]>;
  withMigrationLock<T>(source: TestDatabaseSource, task: () => Promise<T>): Promise<T>;
  lockWaiters(source: TestDatabaseSource): Promise<number>;
  createMigration(
    name: string,
    options: { migrationsDir?: string; schemaFile?: string },
  ): Promise<string | undefined>;
}

async function migrationFolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function tableExists(source: TestDatabaseSource, table: string): Promise<boolean> {
  const [row] = await querySource<{ present: boolean }>(
    source,
    'SELECT to_regclass($1) IS NOT NULL AS present',
    [table],
  );
  return row?.present === true;
}

/** Resolves once `condition` holds; fails (a broken lock never shows a waiter) after `timeoutMs`. */
async function eventually(
  condition: () => Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Migrations from this one on follow the rules for a database that replicas keep writing to while
 * it migrates: every index on a table an earlier migration created is built CONCURRENTLY, alone in
 * its migration (the schema engine then runs it outside a transaction), and no comment holds a
 * semicolon (the engine splits the script at each one, comments included). The earlier ones ran
 * before there were replicas and are left as they were applied.
 */
export const ONLINE_MIGRATIONS_SINCE = '20261126030000';

/** What a migration's SQL breaks of the rules above (none: an empty list). */
export function onlineMigrationProblems(sql: string): string[] {
  const problems: string[] = [];
  const comments = sql.match(/--[^\n]*/g) ?? [];
  if (comments.some((comment) => comment.includes(';'))) problems.push('a comment holds a semicolon');
  const statements = sql
    .replace(/--[^\n]*/g, '')
    .split(';')
    .map((statement) => statement.replace(/\s+/g, ' ').trim())
    .filter((statement) => statement !== '');
  const created = new Set(
    statements.flatMap(
      (statement) => /^CREATE TABLE (?:IF NOT EXISTS )?"?(\w+)"?/i.exec(statement)?.[1] ?? [],
    ),
  );
  for (const statement of statements) {
    const index = /^CREATE (?:UNIQUE )?INDEX (CONCURRENTLY )?.*? ON (?:ONLY )?"?(\w+)"?/i.exec(statement);
    if (index && !index[1] && !created.has(index[2]!)) {
      problems.push(`an index on the existing table ${index[2]} is not built CONCURRENTLY: ${statement}`);
    }
    if (/\bCONCURRENTLY\b/i.test(statement) && statements.length > 1) {
      problems.push(`a CONCURRENTLY statement shares its migration with ${statements.length - 1} other(s)`);
    }
  }
  return problems;
}

/**
 * The migration tests every app runs against its own runner: committed
 * migrations apply as `prisma migrate deploy` records them, a second run
 * applies nothing, replicas serialize on the lock, and db:migration:create
 * writes the next migration from a schema change.
 */
export function describeMigrations(subject: MigrationSubject): void {
  describe('migrations', () => {
    jest.setTimeout(120_000);

    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase({ empty: true });
    });
    afterEach(() => database.drop());

    const recordedMigrations = () =>
      querySource<{ migration_name: string; checksum: string; finished: boolean }>(
        database.source,
        'SELECT migration_name, checksum, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name',
      );

    it('applies every committed migration to an empty database and records it as prisma migrate deploy does', async () => {
      const committed = await migrationFolders(subject.migrationsDir);
      expect(await subject.applyMigrations(database.source)).toEqual(committed);
      const recorded = await recordedMigrations();
      expect(recorded.map((row) => row.migration_name)).toEqual(committed);
      expect(recorded.every((row) => row.finished)).toBe(true);
      const firstSql = await readFile(path.join(subject.migrationsDir, committed[0]!, 'migration.sql'));
      expect(recorded[0]!.checksum).toBe(createHash('sha256').update(firstSql).digest('hex'));
    });

    it('builds each new index on an existing table without blocking writes (ONLINE_MIGRATIONS_SINCE)', async () => {
      const problems: string[] = [];
      for (const folder of await migrationFolders(subject.migrationsDir)) {
        if (folder < ONLINE_MIGRATIONS_SINCE) continue;
        const sql = await readFile(path.join(subject.migrationsDir, folder, 'migration.sql'), 'utf8');
        problems.push(...onlineMigrationProblems(sql).map((problem) => `${folder}: ${problem}`));
      }
      expect(problems).toEqual([]);
    });

    it('applies nothing on a second run', async () => {
      await subject.applyMigrations(database.source);
      expect(await subject.applyMigrations(database.source)).toEqual([]);
    });

    it('does not migrate while another replica holds the migration lock', async () => {
      let release!: () => void;
      let signalHeld!: () => void;
      const held = new Promise<void>((resolve) => (signalHeld = resolve));
      const otherReplica = subject.withMigrationLock(database.source, async () => {
        signalHeld();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await held;
      const migrating = subject.applyMigrations(database.source);
      // The observable signal: the second runner is queued on the lock (pg_locks on PostgreSQL).
      await eventually(
        async () => (await subject.lockWaiters(database.source)) === 1,
        'the second runner waits on the migration lock',
      );
      expect(await tableExists(database.source, '_prisma_migrations')).toBe(false);
      release();
      await otherReplica;
      expect(await migrating).toEqual(await migrationFolders(subject.migrationsDir));
      expect(await subject.lockWaiters(database.source)).toBe(0);
    });

    describe('db:migration:create', () => {
      let workDir: string;
      beforeEach(async () => {
        workDir = await mkdtemp(path.join(os.tmpdir(), 'migration-create-'));
        await cp(subject.migrationsDir, path.join(workDir, 'migrations'), { recursive: true });
      });
      afterEach(() => rm(workDir, { recursive: true, force: true }));

      it('writes nothing when the schema matches the committed migrations', async () => {
        expect(
          await subject.createMigration('nothing_new', { migrationsDir: path.join(workDir, 'migrations') }),
        ).toBeUndefined();
      });

      it('writes the next migration from a schema change, which then applies once', async () => {
        const changedSchema = path.join(workDir, 'schema.prisma');
        await writeFile(
          changedSchema,
          `${await readFile(subject.schemaFile, 'utf8')}\nmodel MigrationProbe {\n  id Int @id\n  note String\n}\n`,
        );
        const dir = path.join(workDir, 'migrations');
        const folder = await subject.createMigration('add_probe', {
          migrationsDir: dir,
          schemaFile: changedSchema,
        });
        expect(folder).toMatch(/\d{14}_add_probe$/);
        expect(await readFile(path.join(folder!, 'migration.sql'), 'utf8')).toContain(
          'CREATE TABLE "MigrationProbe"',
        );

        const applied = await subject.applyMigrations(database.source, { migrationsDir: dir });
        expect(applied.at(-1)).toBe(path.basename(folder!));
        expect(await subject.applyMigrations(database.source, { migrationsDir: dir })).toEqual([]);
        expect(await querySource(database.source, 'SELECT id, note FROM "MigrationProbe"')).toEqual([]);
      });
    });
  });
}

import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestDatabaseSource } from '../database-template';
import { querySource } from '../sql';
import { createTestDatabase, type TestDatabase } from '../test-database';

/** An app's own migration runner and migration writer; the suite carries no copy of either. */
export interface MigrationSubject {
  migrationsDir: string;
  schemaFile: string;
  applyMigrations(
    source: TestDatabaseSource,
    options?: { migrationsDir?: string; notice?: (message: string) => void },
  ): Promise<string[]>;
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
      // The observable signal: the second runner waits for the lock (on PostgreSQL its session says
      // so in pg_stat_activity; it holds no transaction while it waits, so pg_locks shows nothing).
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

    describe('a migration an earlier run left unfinished', () => {
      let dir: string;
      beforeEach(async () => {
        dir = await mkdtemp(path.join(os.tmpdir(), 'migration-unfinished-'));
        await cp(subject.migrationsDir, dir, { recursive: true });
      });
      afterEach(() => rm(dir, { recursive: true, force: true }));

      const addMigration = async (name: string, sql: string) => {
        await mkdir(path.join(dir, name));
        await writeFile(path.join(dir, name, 'migration.sql'), sql);
      };
      /**
       * What a runner that died while `name` ran leaves: its row in Prisma's table, started and
       * never finished (the engine records the row before it runs the script).
       */
      const recordStarted = async (name: string) => {
        const sql = await readFile(path.join(dir, name, 'migration.sql'));
        await querySource(
          database.source,
          `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 0)`,
          [randomUUID(), createHash('sha256').update(sql).digest('hex'), name],
        );
      };
      const probeIndexes = () =>
        querySource<{ name: string; valid: boolean }>(
          database.source,
          `SELECT indexrelid::regclass::text AS name, indisvalid AS valid FROM pg_index
            WHERE indrelid = to_regclass('migration_probe') ORDER BY 1`,
        );

      it('is built again when it is a lone concurrent index build, its INVALID index dropped first', async () => {
        await addMigration(
          '29991231000000_probe_table',
          'CREATE TABLE "migration_probe" ("id" INTEGER PRIMARY KEY, "value" INTEGER NOT NULL);\n' +
            'INSERT INTO "migration_probe" VALUES (1, 7), (2, 7);\n',
        );
        await subject.applyMigrations(database.source, { migrationsDir: dir });
        const build =
          'CREATE UNIQUE INDEX CONCURRENTLY "migration_probe_value_key" ON "migration_probe" ("value");\n';
        await addMigration('29991231000001_probe_value_index', `-- Unique values only.\n${build}`);
        // A build that stopped half-way, as one whose process was killed: its index INVALID (here
        // through the duplicate value, which stops it the same way), its migration unfinished.
        await recordStarted('29991231000001_probe_value_index');
        await expect(querySource(database.source, build)).rejects.toThrow();
        expect(await probeIndexes()).toEqual([
          { name: 'migration_probe_pkey', valid: true },
          { name: 'migration_probe_value_key', valid: false },
        ]);

        await querySource(database.source, 'DELETE FROM "migration_probe" WHERE "id" = 2');
        const notices: string[] = [];
        const applied = await subject.applyMigrations(database.source, {
          migrationsDir: dir,
          notice: (message) => notices.push(message),
        });
        expect(applied).toEqual(['29991231000001_probe_value_index']);
        expect(notices).toEqual([expect.stringContaining('29991231000001_probe_value_index')]);
        expect(await probeIndexes()).toEqual([
          { name: 'migration_probe_pkey', valid: true },
          { name: 'migration_probe_value_key', valid: true },
        ]);
        const rows = await querySource<{ finished: boolean; rolled_back: boolean }>(
          database.source,
          `SELECT finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
             FROM _prisma_migrations WHERE migration_name = '29991231000001_probe_value_index'
            ORDER BY started_at`,
        );
        expect(rows).toEqual([
          { finished: false, rolled_back: true },
          { finished: true, rolled_back: false },
        ]);
      });

      it('stops the next run with a message naming it when it is anything else', async () => {
        await subject.applyMigrations(database.source, { migrationsDir: dir });
        await addMigration(
          '29991231000000_probe_table_and_index',
          'CREATE TABLE "migration_probe" ("id" INTEGER PRIMARY KEY, "value" INTEGER);\n' +
            'CREATE INDEX "migration_probe_value_idx" ON "migration_probe" ("value");\n',
        );
        await recordStarted('29991231000000_probe_table_and_index');
        await expect(subject.applyMigrations(database.source, { migrationsDir: dir })).rejects.toThrow(
          /29991231000000_probe_table_and_index failed on an earlier run and is not a lone CREATE INDEX CONCURRENTLY/,
        );
      });
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

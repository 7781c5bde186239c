import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@repo/testing';
import { createMigration } from '../src/db/create-migration';
import { connectPrisma } from '../src/db/database';
import { applyMigrations, withMigrationLock } from '../src/db/migrate';
import { migrationsDir, schemaFile } from '../src/db/schema-engine';

jest.setTimeout(120_000);

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase({ empty: true });
});
afterEach(() => database.drop());

async function recordedMigrations(db: TestDatabase) {
  const client = connectPrisma(db.source);
  try {
    return await client.prisma.$queryRawUnsafe<
      { migration_name: string; checksum: string; finished: boolean }[]
    >(
      'SELECT migration_name, checksum, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name',
    );
  } finally {
    await client.close();
  }
}

async function committedMigrations(): Promise<string[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

describe('migrations', () => {
  it('applies every committed migration to an empty database and records it as prisma migrate deploy does', async () => {
    const committed = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(await applyMigrations(database.source)).toEqual(committed);
    const recorded = await recordedMigrations(database);
    expect(recorded.map((row) => row.migration_name)).toEqual(committed);
    expect(recorded.every((row) => row.finished)).toBe(true);
    const { createHash } = await import('node:crypto');
    const firstSql = await readFile(path.join(migrationsDir, committed[0]!, 'migration.sql'));
    expect(recorded[0]!.checksum).toBe(createHash('sha256').update(firstSql).digest('hex'));
  });

  it('applies nothing on a second run', async () => {
    await applyMigrations(database.source);
    expect(await applyMigrations(database.source)).toEqual([]);
  });

  it('does not migrate while another replica holds the migration lock', async () => {
    let release!: () => void;
    let signalHeld!: () => void;
    const held = new Promise<void>((resolve) => (signalHeld = resolve));
    const otherReplica = withMigrationLock(database.source, async () => {
      signalHeld();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    let finished = false;
    const migrating = applyMigrations(database.source).then((applied) => {
      finished = true;
      return applied;
    });
    // Long enough for an unguarded run to finish: it takes well under this once the engine is loaded.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(finished).toBe(false);
    release();
    await otherReplica;
    expect(await migrating).toEqual(await committedMigrations());
  });

  describe('db:migration:create', () => {
    let workDir: string;
    beforeEach(async () => {
      workDir = await mkdtemp(path.join(os.tmpdir(), 'migration-create-'));
      await cp(migrationsDir, path.join(workDir, 'migrations'), { recursive: true });
    });
    afterEach(() => rm(workDir, { recursive: true, force: true }));

    it('writes nothing when the schema matches the committed migrations', async () => {
      expect(
        await createMigration('nothing_new', { migrationsDir: path.join(workDir, 'migrations') }),
      ).toBeUndefined();
    });

    it('writes the next migration from a schema change, which then applies once', async () => {
      const changedSchema = path.join(workDir, 'schema.prisma');
      await writeFile(
        changedSchema,
        `${await readFile(schemaFile, 'utf8')}\nmodel MigrationProbe {\n  id Int @id\n  note String\n}\n`,
      );
      const dir = path.join(workDir, 'migrations');
      const folder = await createMigration('add_probe', { migrationsDir: dir, schemaFile: changedSchema });
      expect(folder).toMatch(/\d{14}_add_probe$/);
      expect(await readFile(path.join(folder!, 'migration.sql'), 'utf8')).toContain(
        'CREATE TABLE "MigrationProbe"',
      );

      const applied = await applyMigrations(database.source, { migrationsDir: dir });
      expect(applied.at(-1)).toBe(path.basename(folder!));
      expect(await applyMigrations(database.source, { migrationsDir: dir })).toEqual([]);
      const client = connectPrisma(database.source);
      try {
        await expect(client.prisma.$queryRawUnsafe('SELECT id, note FROM "MigrationProbe"')).resolves.toEqual(
          [],
        );
      } finally {
        await client.close();
      }
    });
  });
});

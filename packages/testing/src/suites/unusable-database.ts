import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { freePort } from '../ports';
import { PROCESS_START_MS, compileApp, runServiceProcess } from '../service-process';
import { querySource } from '../sql';
import { createTestDatabase, type TestDatabase } from '../test-database';

const PASSWORD = 'pw-never-printed';

function withPassword(url: string, database?: string): string {
  const parsed = new URL(url);
  parsed.username = parsed.username || 'postgres';
  parsed.password = PASSWORD;
  if (database) parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** What a refused start-up printed, against what it must: one line, these mentions, no password, exit 1. */
function refusal(run: { outcome: unknown; lines: string[] }, ...mentions: string[]) {
  return {
    outcome: run.outcome,
    lineCount: run.lines.length,
    missing: mentions.filter((mention) => !run.lines[0]?.includes(mention)),
    showsPassword: run.lines.some((line) => line.includes(PASSWORD)),
    lines: run.lines,
  };
}

export interface UnusableDatabaseOptions {
  /** The app's folder: its built dist/main.js is what starts. */
  appDir: string;
  /** This service's name, a key of `serviceTables`. */
  serviceName: string;
  /** The tables each service's migrations create, by service name (the app's own list). */
  serviceTables: Readonly<Record<string, readonly string[]>>;
  /** The tables every service's migrations create alike (in no entry of `serviceTables`). */
  commonTables?: readonly string[];
  /** What the service needs to start besides its database. */
  env?: Record<string, string>;
}

/**
 * A database the service cannot use stops it at start-up with one line that names the host, port
 * and database (never the password) and what to do, and exit code 1: no stack, no half-started service.
 */
export function describeUnusableDatabase(options: UnusableDatabaseOptions): void {
  const { appDir, serviceName, serviceTables } = options;
  const baseEnv = options.env ?? {};
  const serverUrl = process.env.DATABASE_URL;
  const otherService = Object.keys(serviceTables).find((name) => name !== serviceName);
  const ownTables = serviceTables[serviceName];
  if (!otherService || !ownTables)
    throw new Error(`serviceTables must hold ${serviceName} and another service`);
  const otherTables = serviceTables[otherService] ?? [];
  // The other service's tables as its migrations leave them, with Prisma's record of those migrations.
  const otherSchema = [
    ...otherTables.map((table) => `CREATE TABLE "${table}" (id int)`),
    `CREATE TABLE "_prisma_migrations" (id varchar(36) PRIMARY KEY, checksum varchar(64) NOT NULL,
     finished_at timestamptz, migration_name varchar(255) NOT NULL, logs text, rolled_back_at timestamptz,
     started_at timestamptz NOT NULL DEFAULT now(), applied_steps_count integer NOT NULL DEFAULT 0)`,
    `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
     VALUES ('00000000-0000-0000-0000-000000000000', 'x', now(), '20200101000000_${otherService}_init', 1)`,
  ];
  const refused = { outcome: 1, lineCount: 1, missing: [], showsPassword: false, lines: expect.any(Array) };

  describe('a database the service cannot use', () => {
    // Compiling the app takes most of a test's time on a loaded machine: a hook of its own.
    beforeAll(() => compileApp(appDir), 120_000);

    it('names a PostgreSQL server it cannot reach, and exits 1', async () => {
      const port = await freePort();
      const run = await runServiceProcess(appDir, {
        ...baseEnv,
        DATABASE_URL: `postgresql://someone:${PASSWORD}@127.0.0.1:${port}/appdb`,
      });
      expect(refusal(run, `127.0.0.1:${port}`, '"appdb"', 'DATABASE_URL')).toEqual(refused);
    });

    if (serverUrl) {
      it('names a database that does not exist, and exits 1', async () => {
        const url = new URL(serverUrl);
        const run = await runServiceProcess(appDir, {
          ...baseEnv,
          DATABASE_URL: withPassword(serverUrl, 'no_such_database_here'),
        });
        expect(
          refusal(run, `${url.hostname}:${url.port || 5432}`, '"no_such_database_here"', 'does not exist'),
        ).toEqual(refused);
      });

      describe(`a PostgreSQL database holding ${otherService}'s tables`, () => {
        let database: TestDatabase;
        beforeAll(async () => {
          database = await createTestDatabase({ empty: true });
          for (const statement of otherSchema) await querySource(database.source, statement);
        }, PROCESS_START_MS);
        afterAll(() => database.drop());

        it('is refused in one line naming it, and left as it was', async () => {
          if (database.source.kind !== 'postgres') throw new Error('expected a PostgreSQL test database');
          const url = new URL(database.source.url);
          const run = await runServiceProcess(appDir, {
            ...baseEnv,
            DATABASE_URL: withPassword(database.source.url),
          });
          expect(
            refusal(run, `${url.hostname}:${url.port || 5432}`, `"${url.pathname.slice(1)}"`, otherService),
          ).toEqual(refused);
          const tables = await querySource<{ tablename: string }>(
            database.source,
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
          );
          expect(tables.map((row) => row.tablename).sort()).toEqual(
            [...otherTables, '_prisma_migrations'].sort(),
          );
        });
      });
    }

    describe(`a PGlite folder holding ${otherService}'s tables`, () => {
      let dataDir: string;
      beforeAll(async () => {
        dataDir = await mkdtemp(path.join(os.tmpdir(), 'unusable-database-'));
        const pglite = new PGlite(dataDir);
        for (const statement of otherSchema) await pglite.exec(statement);
        await pglite.close();
      }, PROCESS_START_MS);
      afterAll(() => rm(dataDir, { recursive: true, force: true }));

      it('is refused in one line naming the folder', async () => {
        const run = await runServiceProcess(appDir, { ...baseEnv, DATA_DIR: dataDir });
        expect(refusal(run, dataDir, otherService, 'DATA_DIR')).toEqual(refused);
      });
    });

    it(`lists exactly the tables ${serviceName}'s migrations create`, async () => {
      const database = await createTestDatabase();
      try {
        const rows = await querySource<{ tablename: string }>(
          database.source,
          "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'",
        );
        expect(rows.map((row) => row.tablename).sort()).toEqual(
          [...ownTables, ...(options.commonTables ?? [])].sort(),
        );
      } finally {
        await database.drop();
      }
    });
  });
}

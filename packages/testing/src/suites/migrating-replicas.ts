import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { withClient } from '../database-template';
import {
  PROCESS_START_MS,
  compileApp,
  runServiceProcess,
  spawnServiceProcess,
  type StartingServiceProcess,
} from '../service-process';
import { createTestDatabase, type TestDatabase } from '../test-database';

// Replicas of the built service migrating one empty PostgreSQL database as a Deployment's pods do
// (each pod's init container, then each service at start-up): started at the same moment, they all
// become ready and apply each migration once; one that cannot finish in MIGRATION_TIMEOUT_MS exits 1
// with a line saying what it waited for; a concurrent index build that was cancelled or killed is
// built again by the next start, and no INVALID index stays behind. PostgreSQL only: each app's
// jest.config.js leaves test/replicas/ out without DATABASE_URL.

export interface MigratingReplicasOptions {
  /** The app's folder: its built dist/main.js is what starts, its prisma/migrations what applies. */
  appDir: string;
  /** What the service needs to start besides its database. */
  env?: Record<string, string>;
}

const REPLICAS = 3;
/** A bound on becoming ready, not a speed check: a hang fails here instead of at jest's timeout. */
const READY_WITHIN_MS = 90_000;

/** The first committed migration that builds an index concurrently, and that index's name. */
async function concurrentIndexMigration(migrationsDir: string): Promise<{ name: string; index: string }> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  for (const folder of entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()) {
    const sql = await readFile(path.join(migrationsDir, folder, 'migration.sql'), 'utf8');
    const index = /^CREATE (?:UNIQUE )?INDEX CONCURRENTLY "?(\w+)"?/im.exec(sql)?.[1];
    if (index) return { name: folder, index };
  }
  throw new Error(`no migration in ${migrationsDir} builds an index concurrently`);
}

async function committedMigrations(migrationsDir: string): Promise<string[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function query<Row>(url: string, sql: string, parameters: unknown[] = []): Promise<Row[]> {
  return withClient(url, async (client) => (await client.query(sql, parameters)).rows as Row[]);
}

/** Tables, columns and index definitions, to compare two databases' schemas. */
async function schemaOf(url: string): Promise<string[]> {
  const rows = await query<{ line: string }>(
    url,
    `SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
            || ' ' || coalesce(column_default, '') AS line
       FROM information_schema.columns WHERE table_schema = current_schema()
     UNION ALL
     SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
     ORDER BY 1`,
  );
  return rows.map((row) => row.line);
}

const invalidIndexes = (url: string) =>
  query<{ name: string }>(
    url,
    `SELECT indexrelid::regclass::text AS name FROM pg_index
      JOIN pg_class ON pg_class.oid = indexrelid
      WHERE NOT indisvalid AND relnamespace = current_schema()::regnamespace`,
  );

/** Each migration's rows in Prisma's table: finished, rolled back, and neither (failed or running). */
const migrationRecords = (url: string) =>
  query<{ migration_name: string; finished: number; rolled_back: number; unfinished: number }>(
    url,
    `SELECT migration_name,
            count(*) FILTER (WHERE finished_at IS NOT NULL)::int AS finished,
            count(*) FILTER (WHERE rolled_back_at IS NOT NULL)::int AS rolled_back,
            count(*) FILTER (WHERE finished_at IS NULL AND rolled_back_at IS NULL)::int AS unfinished
       FROM _prisma_migrations GROUP BY migration_name ORDER BY migration_name`,
  );

/** The backends (other than the caller's) running a CREATE INDEX CONCURRENTLY on this database. */
const indexBuilds = (url: string) =>
  query<{ pid: number; wait_event: string | null }>(
    url,
    `SELECT pid, wait_event FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
        AND query ILIKE '%CREATE%INDEX CONCURRENTLY%'`,
  );

/**
 * /readyz's status once it answers 200, or its last one after `timeoutMs` (asked every 250 ms, as
 * a load balancer's probe: on a loaded machine the first database check may miss its own bound).
 */
async function readiness(baseUrl: string, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200 || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function eventually(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * An open transaction holding a snapshot, as a long report or a forgotten session of another
 * client does: a concurrent index build waits for it to end before the index becomes valid.
 */
async function holdSnapshot(url: string): Promise<{ release(): Promise<void> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  await client.query('SELECT 1');
  return {
    async release() {
      await client.query('COMMIT').catch(() => undefined);
      await client.end();
    },
  };
}

export function describeMigratingReplicas({ appDir, env = {} }: MigratingReplicasOptions): void {
  const migrationsDir = path.join(appDir, 'prisma', 'migrations');

  describe('replicas migrating one database', () => {
    let database: TestDatabase;
    let url: string;
    const spawned: StartingServiceProcess[] = [];
    const releases: (() => Promise<void>)[] = [];

    const serviceEnv = (extra: Record<string, string> = {}) => ({
      ...env,
      DATABASE_URL: url,
      LOG_FORMAT: 'json',
      ...extra,
    });
    const spawn = async (extra?: Record<string, string>) => {
      const replica = await spawnServiceProcess(appDir, serviceEnv(extra));
      spawned.push(replica);
      return replica;
    };
    const start = async (extra?: Record<string, string>) => (await spawn(extra)).listening(READY_WITHIN_MS);
    const blockIndexBuilds = async () => {
      const blocker = await holdSnapshot(url);
      releases.push(blocker.release);
      return blocker;
    };

    // Compiling the app takes most of a test's time on a loaded machine: a hook of its own.
    beforeAll(() => compileApp(appDir), PROCESS_START_MS);

    beforeEach(async () => {
      database = await createTestDatabase({ empty: true });
      if (database.source.kind !== 'postgres') throw new Error('migrating replicas need DATABASE_URL');
      url = database.source.url;
    });

    afterEach(async () => {
      for (const release of releases.splice(0)) await release();
      await Promise.all(
        spawned.splice(0).map(async (replica) => {
          replica.child.kill('SIGKILL');
          await replica.exited;
        }),
      );
      await database.drop();
    });

    it(
      `${REPLICAS} replicas started at once on an empty database all become ready, each migration applied once`,
      async () => {
        // What makes it hard: a build that waits for every open transaction, the other replicas' included.
        await concurrentIndexMigration(migrationsDir);
        const replicas = await Promise.all(Array.from({ length: REPLICAS }, () => start()));

        const ready = await Promise.all(replicas.map((replica) => readiness(replica.baseUrl)));
        expect(ready).toEqual(Array.from({ length: REPLICAS }, () => 200));
        expect(await migrationRecords(url)).toEqual(
          (await committedMigrations(migrationsDir)).map((name) => ({
            migration_name: name,
            finished: 1,
            rolled_back: 0,
            unfinished: 0,
          })),
        );
        expect(await invalidIndexes(url)).toEqual([]);
        // The schema is the one a single runner makes (the test template, migrated once).
        const reference = await createTestDatabase();
        try {
          if (reference.source.kind !== 'postgres') throw new Error('expected PostgreSQL');
          expect(await schemaOf(url)).toEqual(await schemaOf(reference.source.url));
        } finally {
          await reference.drop();
        }
      },
      PROCESS_START_MS,
    );

    it(
      'a replica waiting for the migration lock gives up after MIGRATION_TIMEOUT_MS, exits 1 and says what it waited for',
      async () => {
        const { name } = await concurrentIndexMigration(migrationsDir);
        const blocker = await blockIndexBuilds();
        const first = await spawn();
        await eventually(
          async () => (await indexBuilds(url)).length === 1,
          'the first replica builds the index',
        );

        const waitingStarted = Date.now();
        const waiting = await runServiceProcess(appDir, serviceEnv({ MIGRATION_TIMEOUT_MS: '3000' }));
        const waitedMs = Date.now() - waitingStarted;
        expect(waiting.outcome).toBe(1);
        expect(waitedMs).toBeLessThan(30_000);
        const line = waiting.lines.find((text) => text.includes('MIGRATION_TIMEOUT_MS'));
        expect(line).toEqual(expect.stringContaining('migration lock'));
        expect(line).toEqual(expect.stringContaining(name));

        // The build never waited for the replica that gave up: it finishes once the snapshot is released.
        await blocker.release();
        const replica = await first.listening(READY_WITHIN_MS);
        expect(await readiness(replica.baseUrl)).toBe(200);
        expect(await invalidIndexes(url)).toEqual([]);
      },
      PROCESS_START_MS,
    );

    it(
      'a build that does not finish within MIGRATION_TIMEOUT_MS is cancelled, and the next start builds it again',
      async () => {
        const { name, index } = await concurrentIndexMigration(migrationsDir);
        const blocker = await blockIndexBuilds();
        const migrating = await runServiceProcess(appDir, serviceEnv({ MIGRATION_TIMEOUT_MS: '5000' }));
        expect(migrating.outcome).toBe(1);
        const line = migrating.lines.find((text) => text.includes('MIGRATION_TIMEOUT_MS'));
        expect(line).toEqual(expect.stringContaining(name));
        // Cancelled on the server too: no build goes on after the process is gone.
        await eventually(async () => (await indexBuilds(url)).length === 0, 'the build is cancelled', 10_000);
        expect(await invalidIndexes(url)).toEqual([{ name: index }]);

        await blocker.release();
        const replica = await start();
        expect(await readiness(replica.baseUrl)).toBe(200);
        expect(await invalidIndexes(url)).toEqual([]);
        const records = await migrationRecords(url);
        expect(records.find((record) => record.migration_name === name)).toEqual({
          migration_name: name,
          finished: 1,
          rolled_back: 1,
          unfinished: 0,
        });
        expect(records.every((record) => record.finished === 1 && record.unfinished === 0)).toBe(true);
      },
      PROCESS_START_MS,
    );

    it(
      'a build killed mid-way (the pod killed) is dropped and built again by the next start',
      async () => {
        const { name, index } = await concurrentIndexMigration(migrationsDir);
        const blocker = await blockIndexBuilds();
        const killed = await spawn();
        await eventually(async () => (await indexBuilds(url)).length === 1, 'the replica builds the index');
        expect(await invalidIndexes(url)).toEqual([{ name: index }]);
        // SIGKILL: nothing of the process runs again, but its build goes on in its server backend,
        // orphaned, until it ends (the backend notices the lost client only when it next replies).
        killed.child.kill('SIGKILL');
        await killed.exited;
        expect(await indexBuilds(url)).toHaveLength(1);

        // The next start finds the migration unfinished while the orphan still builds: it is let go
        // only once the next start is migrating (a session of its named `… applying …`) and has had
        // a second to reach the drop. A drop issued beside the orphan's build failed with "tuple
        // concurrently updated" as the build went on (seen in CI, under load).
        const next = await spawn();
        await eventually(
          async () =>
            (
              await query<{ sessions: number }>(
                url,
                "SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE application_name LIKE '% applying %'",
              )
            )[0]!.sessions > 0,
          'the next start migrates',
        );
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await blocker.release();
        const replica = await next.listening(READY_WITHIN_MS);
        expect(await readiness(replica.baseUrl)).toBe(200);
        expect(await invalidIndexes(url)).toEqual([]);
        const [valid] = await query<{ valid: boolean }>(
          url,
          'SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)',
          [index],
        );
        expect(valid).toEqual({ valid: true });
        const records = await migrationRecords(url);
        expect(records.find((record) => record.migration_name === name)).toMatchObject({
          finished: 1,
          unfinished: 0,
        });
      },
      PROCESS_START_MS,
    );
  });
}

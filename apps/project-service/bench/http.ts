/**
 * The HTTP bench of project-service against its baseline (bench/baseline/), on PostgreSQL.
 *
 *   npx tsx bench/http.ts          (or pnpm run bench, which runs the codec bench first)
 *
 * Builds the service, creates a throwaway database on BENCH_DATABASE_URL's server, lets the service
 * migrate it, seeds 10,000 projects (bench/seed.ts), measures start-up to /readyz, then loads the
 * service (`node dist/main.js`, NODE_ENV=production, LOG_LEVEL=warn) and the baseline in turn with
 * autocannon in a separate process, and measures the unpaged list's time and memory. The database
 * is dropped at the end. Settings: BENCH_DURATION (s per run, 3), BENCH_ROUNDS (2), BENCH_WARMUP
 * (s, 1), BENCH_CONNECTIONS (1,16,64), BENCH_SCENARIOS (substrings of scenario names; "startup"
 * and "full list" name the two measurements), BENCH_STARTS (start-ups timed, 5), BENCH_CPU_PROF=1
 * (run the service under --cpu-prof; profiles land in bench/results/profiles/).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { createThrowawayDatabase, dropDatabase, withDatabase } from './harness/postgres';
import { freePort, median, startServer, type ServerProcess } from './harness/processes';
import { commit, machine, type BenchResults, type Measurement } from './harness/report';
import { runScenarios, selected, settingsFromEnvironment, type Scenario } from './harness/rounds';
import { ADMIN, CALLER, deepProjects, seedProjects } from './seed';

const APP_DIR = path.resolve(__dirname, '..');
const JWT_SECRET = 'project-service-bench-secret-0123456789';
const ADMIN_GROUP = 'project-admins';
const token = (principal: string) =>
  jwt.sign({ principal, sub: principal }, JWT_SECRET, { algorithm: 'HS256', expiresIn: '12h' });

function serverEnvironment(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    JWT_SECRET,
    ADMIN_PRINCIPALS: ADMIN,
    ADMIN_GROUP,
  };
}

async function startService(databaseUrl: string, profile = false): Promise<ServerProcess> {
  const port = await freePort();
  const profileArgs = profile
    ? ['--cpu-prof', '--cpu-prof-dir', path.join(APP_DIR, 'bench', 'results', 'profiles')]
    : [];
  return startServer({
    name: 'service',
    command: process.execPath,
    args: [...profileArgs, 'dist/main.js'],
    cwd: APP_DIR,
    env: serverEnvironment(databaseUrl, port),
    port,
    readyPath: '/readyz',
  });
}

async function startBaseline(databaseUrl: string): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name: 'baseline',
    command: process.execPath,
    args: ['--import', 'tsx', 'bench/baseline/server.ts'],
    cwd: APP_DIR,
    env: { ...serverEnvironment(databaseUrl, port), NODE_ENV: 'production' },
    port,
    readyPath: '/readyz',
  });
}

const authorization = (principal: string) => ({ authorization: `Bearer ${token(principal)}` });

function scenarios(databaseUrl: string, deep: string[]): Scenario[] {
  const reader = authorization(CALLER);
  const json = { ...reader, 'content-type': 'application/json' };
  // Writes: eight projects per connection at 64, so no two requests in flight race for one ETag.
  const writeTargets = deep.slice(0, 512);
  const readPaths = (suffix: string) => deep.slice(512, 712).map((uid) => `/projects/${uid}${suffix}`);
  const bigParent = withDatabase(databaseUrl, async (client) => {
    const { rows } = await client.query<{ uid: string }>(
      `SELECT uid::text AS uid FROM projects WHERE slug = 'project-781'`,
    );
    return rows[0]!.uid;
  });
  const projectRows = () =>
    withDatabase(databaseUrl, async (client) => {
      const { rows } = await client.query<{
        uid: string;
        slug: string;
        description: string;
        parent_uid: string;
        base_revision: number;
        settings_revision: number;
      }>(
        `SELECT uid::text AS uid, slug, description, parent_uid::text AS parent_uid, base_revision, settings_revision
         FROM projects WHERE uid = ANY($1::uuid[]) ORDER BY uid`,
        [writeTargets],
      );
      return rows;
    });
  const get =
    (suffix: string, accept?: string): Scenario['load'] =>
    async () => ({
      method: 'GET',
      headers: { ...reader, ...(accept ? { accept } : {}) },
      mode: { kind: 'cycle', paths: readPaths(suffix) },
    });
  return [
    { name: 'GET /projects/{uid}', load: get('') },
    { name: 'GET /projects/{uid}/settings', load: get('/settings') },
    { name: 'GET /projects/{uid} (XML)', load: get('', 'application/xml') },
    { name: 'GET /projects/{uid} (gob)', load: get('', 'application/gob') },
    {
      name: 'GET /projects?parent_uid&page_size=100',
      load: async () => ({
        method: 'GET',
        headers: reader,
        mode: { kind: 'cycle', paths: [`/projects?parent_uid=${await bigParent}&page_size=100`] },
      }),
    },
    {
      name: 'PUT /projects/{uid} (If-Match)',
      load: async () => ({
        method: 'PUT',
        headers: json,
        mode: {
          kind: 'per-connection',
          targets: (await projectRows()).map((row) => ({
            path: `/projects/${row.uid}`,
            etag: `"b${row.base_revision}"`,
            body: JSON.stringify({
              slug: row.slug,
              name: `Renamed ${row.slug}`,
              description: row.description,
              parent_uid: row.parent_uid,
              category: 'Incubating',
              stage: 'Active',
              funding_model: ['Membership'],
              website_url: `https://${row.slug}.example.org/`,
              public: true,
            }),
          })),
        },
      }),
    },
    {
      name: 'PUT /projects/{uid}/settings (If-Match)',
      load: async () => ({
        method: 'PUT',
        headers: json,
        mode: {
          kind: 'per-connection',
          targets: (await projectRows()).map((row) => ({
            path: `/projects/${row.uid}/settings`,
            etag: `"s${row.settings_revision}"`,
            body: JSON.stringify({
              mission_statement: `The mission of ${row.slug}, restated by the bench.`,
              announcement_date: '2026-03-01',
              writers: [
                {
                  username: 'bob',
                  name: 'Bob Writer',
                  email: 'bob@example.org',
                  avatar: 'https://avatars.example.org/u/bob',
                },
                { username: 'carol', name: 'Carol Writer', email: 'carol@example.org', avatar: '' },
              ],
              auditors: [{ username: 'dave', name: 'Dave Auditor', email: 'dave@example.org', avatar: '' }],
              meeting_coordinators: [],
            }),
          })),
        },
      }),
    },
    {
      name: 'POST /projects',
      load: async () => ({
        method: 'POST',
        headers: json,
        mode: {
          kind: 'unique',
          path: '/projects',
          template: JSON.stringify({
            slug: 'bench-new-{{n}}',
            name: 'New project {{n}}',
            description: 'Created by the bench under a level-5 project alice writes through level 1.',
            parent_uid: await bigParent,
            category: 'Sandbox',
            funding_model: ['Crowdfunding'],
            writers: [{ username: 'erin', name: 'Erin', email: 'erin@example.org', avatar: '' }],
          }),
        },
      }),
    },
  ];
}

/** The unpaged list of every project (an admin's): time, and the server's peak RSS growth. */
async function fullList(server: ServerProcess, label: string): Promise<Measurement[]> {
  const headers = authorization(ADMIN);
  const once = async () => {
    const started = performance.now();
    const response = await fetch(`${server.url}/projects`, { headers });
    const body = await response.arrayBuffer();
    return { ms: performance.now() - started, bytes: body.byteLength, status: response.status };
  };
  const times: number[] = [];
  const growth: number[] = [];
  let bytes = 0;
  let first = 0;
  for (let run = 0; run < 4; run++) {
    const before = server.memory().rssMiB;
    server.resetPeak();
    const result = await once();
    if (result.status !== 200) throw new Error(`${label}: full list answered ${result.status}`);
    if (run === 0) first = result.ms;
    else times.push(result.ms);
    growth.push(server.memory().peakMiB - before);
    bytes = result.bytes;
  }
  const before = server.memory().rssMiB;
  server.resetPeak();
  const started = performance.now();
  // The service bounds concurrent unpaged lists (UNPAGED_LIST_CONCURRENCY): past it, a 429.
  const concurrent = await Promise.all(Array.from({ length: 20 }, once));
  const concurrentMs = performance.now() - started;
  const served = concurrent.filter((result) => result.status === 200).length;
  const concurrentGrowth = server.memory().peakMiB - before;
  console.log(
    `  full list (${label}): ${(bytes / 2 ** 20).toFixed(1)} MiB, first ${first.toFixed(0)} ms, warm ${median(times).toFixed(0)} ms, ` +
      `RSS +${Math.max(...growth).toFixed(1)} MiB; 20 concurrent ${concurrentMs.toFixed(0)} ms (${served} answered 200), ` +
      `+${concurrentGrowth.toFixed(1)} MiB`,
  );
  return [
    { name: 'full list of 10,000: first call', value: first, unit: 'ms' },
    { name: 'full list of 10,000: warm (median of 3)', value: median(times), unit: 'ms' },
    { name: 'full list of 10,000: peak RSS growth', value: Math.max(...growth), unit: 'MiB' },
    { name: '20 concurrent full lists: time', value: concurrentMs, unit: 'ms' },
    { name: '20 concurrent full lists: peak RSS growth', value: concurrentGrowth, unit: 'MiB' },
    {
      name: '20 concurrent full lists: answered 200 (others 429)',
      value: served,
      unit: '',
      higherIsBetter: true,
    },
  ];
}

function merge(service: Measurement[], baseline: Measurement[]): Measurement[] {
  return service.map((m, index) => ({ ...m, baseline: baseline[index]?.value }));
}

export async function runHttpBench(): Promise<BenchResults> {
  const settings = settingsFromEnvironment();
  const profile = process.env.BENCH_CPU_PROF === '1';
  console.log('project-service HTTP bench: building the service');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: APP_DIR, stdio: 'inherit' });
  if (profile) mkdirSync(path.join(APP_DIR, 'bench', 'results', 'profiles'), { recursive: true });
  const database = await createThrowawayDatabase('bench_project_service');
  const measurements: Measurement[] = [];
  try {
    // The first start migrates the empty database.
    await (await startService(database.url)).stop();
    console.log('seeding 10,000 projects');
    const seeded = performance.now();
    const { deep, postgres } = await withDatabase(database.url, async (client) => {
      await seedProjects(client);
      const version = (await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`))
        .rows[0]!.v;
      return { deep: await deepProjects(client, 712), postgres: `PostgreSQL ${version}` };
    });
    console.log(`  seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

    if (selected('startup')) {
      const starts = Number(process.env.BENCH_STARTS ?? 5);
      const service: number[] = [];
      const baseline: number[] = [];
      for (let run = 0; run < starts; run++) {
        const s = await startService(database.url);
        service.push(s.readyMs);
        await s.stop();
        const b = await startBaseline(database.url);
        baseline.push(b.readyMs);
        await b.stop();
      }
      console.log(
        `  start-up to /readyz: service ${median(service).toFixed(0)} ms, baseline ${median(baseline).toFixed(0)} ms`,
      );
      measurements.push({
        name: 'start-up to /readyz (migrated database, median)',
        value: median(service),
        unit: 'ms',
        baseline: median(baseline),
      });
    }

    const service = await startService(database.url, profile);
    const baseline = await startBaseline(database.url);
    try {
      if (selected('full list')) {
        measurements.push(...merge(await fullList(service, 'service'), await fullList(baseline, 'baseline')));
      }
      const results = await runScenarios(
        scenarios(database.url, deep),
        { service: { name: 'service', url: service.url }, baseline: { name: 'baseline', url: baseline.url } },
        settings,
      );
      return {
        app: 'project-service',
        date: new Date().toISOString(),
        commit: commit(),
        machine: machine(postgres),
        settings: {
          ...settings,
          data: '10,000 projects, 6 levels',
          caller: 'writer inherited from level 1, reading level 6',
        },
        scenarios: results,
        measurements,
      };
    } finally {
      await service.stop();
      await baseline.stop();
    }
  } finally {
    await dropDatabase(database.name);
  }
}

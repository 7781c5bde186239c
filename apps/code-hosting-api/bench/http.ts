/**
 * The HTTP bench of code-hosting-api against its baseline (bench/baseline/), on PostgreSQL.
 *
 *   npx tsx bench/run.ts          (pnpm run bench runs the attachment bench first)
 *
 * Builds the service, creates a throwaway database on BENCH_DATABASE_URL's server, lets the service
 * migrate it (and bootstrap its administrator), seeds bench/seed.ts's accounts, organizations,
 * repositories, issues and feed, uploads five attachments through the API, measures start-up to
 * /readyz, then loads the service (`node dist/main.js`, NODE_ENV=production, LOG_LEVEL=warn) and
 * the baseline in turn with autocannon in a separate process. The database and the attachment
 * folder are removed at the end. Settings as project-service's bench/http.ts: BENCH_DURATION,
 * BENCH_ROUNDS, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_SCENARIOS, BENCH_STARTS, BENCH_CPU_PROF=1.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createThrowawayDatabase, dropDatabase, withDatabase } from './harness/postgres';
import { freePort, median, startServer, type ServerProcess } from './harness/processes';
import { commit, machine, type BenchResults, type Measurement } from './harness/report';
import { runScenarios, selected, settingsFromEnvironment, type Scenario } from './harness/rounds';
import { seedAccounts, tokenSecret } from './seed';

const APP_DIR = path.resolve(__dirname, '..');
/** The same public URL for both servers, so their bodies can be byte-identical. */
const ROOT_URL = 'http://code.bench.example/';
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password-0123' };

function serverEnvironment(databaseUrl: string, port: number, dataDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    ROOT_URL,
    DATA_DIR: dataDir,
    ATTACHMENT_STORAGE: 'disk',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  };
}

async function startService(databaseUrl: string, dataDir: string, profile = false): Promise<ServerProcess> {
  const port = await freePort();
  const profileArgs = profile
    ? ['--cpu-prof', '--cpu-prof-dir', path.join(APP_DIR, 'bench', 'results', 'profiles')]
    : [];
  return startServer({
    name: 'service',
    command: process.execPath,
    args: [...profileArgs, 'dist/main.js'],
    cwd: APP_DIR,
    env: serverEnvironment(databaseUrl, port, dataDir),
    port,
    readyPath: '/readyz',
  });
}

async function startBaseline(databaseUrl: string, dataDir: string): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name: 'baseline',
    command: process.execPath,
    args: ['--import', 'tsx', 'bench/baseline/server.ts'],
    cwd: APP_DIR,
    env: serverEnvironment(databaseUrl, port, dataDir),
    port,
    readyPath: '/readyz',
  });
}

const CALLER_TOKEN = tokenSecret(1);
const reader = { authorization: `token ${CALLER_TOKEN}` };

/** Five attachments on org1/repo-1#1 through the real upload path; their uuids. */
async function uploadAttachments(service: ServerProcess): Promise<string[]> {
  const uuids: string[] = [];
  for (let i = 1; i <= 5; i++) {
    const form = new FormData();
    const text = `line ${i} of a crash log: panic at the disco\n`.repeat(400);
    form.append('attachment', new Blob([text], { type: 'text/plain' }), `crash-${i}.log`);
    const response = await fetch(`${service.url}/api/v1/repos/org1/repo-1/issues/1/assets`, {
      method: 'POST',
      headers: reader,
      body: form,
    });
    if (response.status !== 201)
      throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    uuids.push(((await response.json()) as { uuid: string }).uuid);
  }
  return uuids;
}

function scenarios(attachments: string[]): Scenario[] {
  const get =
    (paths: string[]): Scenario['load'] =>
    async () => ({ method: 'GET', headers: reader, mode: { kind: 'cycle', paths } });
  const range = (count: number, path: (i: number) => string) =>
    Array.from({ length: count }, (_, i) => path(i + 1));
  // Organizations the caller sees (seed.ts: every tenth is private, and user1 is in few of them).
  const visibleOrgs = Array.from({ length: 220 }, (_, i) => i + 1)
    .filter((i) => i % 10 !== 9)
    .slice(0, 200);
  return [
    { name: 'GET /orgs/{org}', load: get(visibleOrgs.map((i) => `/api/v1/orgs/org${i}`)) },
    { name: 'GET /orgs (page of 50)', load: get(range(20, (i) => `/api/v1/orgs?limit=50&page=${i}`)) },
    { name: 'GET /users/{u}/orgs', load: get(range(100, (i) => `/api/v1/users/user${i}/orgs`)) },
    {
      name: 'GET /users/{u}/orgs/{org}/permissions',
      load: get(visibleOrgs.map((i) => `/api/v1/users/user1/orgs/org${i}/permissions`)),
    },
    {
      name: 'GET /orgs/{org}/activities/feeds',
      load: get(range(30, (i) => `/api/v1/orgs/org${i * 30 + 1}/activities/feeds`)),
    },
    {
      name: 'GET /repos/{o}/{r}/issues/{i}/assets (no baseline)',
      load: get(['/api/v1/repos/org1/repo-1/issues/1/assets']),
      serviceOnly: true,
    },
    {
      name: 'GET /attachments/{uuid} (16 KiB; no baseline)',
      load: get(attachments.map((uuid) => `/attachments/${uuid}`)),
      serviceOnly: true,
    },
  ];
}

export async function runHttpBench(): Promise<BenchResults> {
  const settings = settingsFromEnvironment();
  const profile = process.env.BENCH_CPU_PROF === '1';
  console.log('code-hosting-api HTTP bench: building the service');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: APP_DIR, stdio: 'inherit' });
  if (profile) mkdirSync(path.join(APP_DIR, 'bench', 'results', 'profiles'), { recursive: true });
  const database = await createThrowawayDatabase('bench_code_hosting_api');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-code-hosting-'));
  const measurements: Measurement[] = [];
  try {
    // The first start migrates the empty database and creates the administrator.
    await (await startService(database.url, dataDir)).stop();
    console.log(
      'seeding 1,000 users, 1,000 organizations, 5,000 repositories, 20,000 issues, 50,000 feed rows',
    );
    const seeded = performance.now();
    const postgres = await withDatabase(database.url, async (client) => {
      await seedAccounts(client, ADMIN.username);
      return `PostgreSQL ${(await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]!.v}`;
    });
    console.log(`  seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

    if (selected('startup')) {
      const starts = Number(process.env.BENCH_STARTS ?? 5);
      const service: number[] = [];
      const baseline: number[] = [];
      for (let run = 0; run < starts; run++) {
        const s = await startService(database.url, dataDir);
        service.push(s.readyMs);
        await s.stop();
        const b = await startBaseline(database.url, dataDir);
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

    const service = await startService(database.url, dataDir, profile);
    const baseline = await startBaseline(database.url, dataDir);
    try {
      const attachments = await uploadAttachments(service);
      const results = await runScenarios(
        scenarios(attachments),
        { service: { name: 'service', url: service.url }, baseline: { name: 'baseline', url: baseline.url } },
        settings,
      );
      return {
        app: 'code-hosting-api',
        date: new Date().toISOString(),
        commit: commit(),
        machine: machine(postgres),
        settings: {
          ...settings,
          data: '1,000 users, 1,000 organizations with 3 teams, 5,000 repositories, 20,000 issues, 50,000 feed rows',
          caller: 'user1 (all-scope token), a member of 1 organization in 30',
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
    rmSync(dataDir, { recursive: true, force: true });
  }
}

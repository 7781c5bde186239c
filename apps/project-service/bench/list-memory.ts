/**
 * Peak memory of the service under concurrent unpaged lists, on PostgreSQL.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/list-memory.ts
 *
 * Creates (once) a database `project_service_list_memory` holding BENCH_PROJECTS large projects
 * (8,000-character description and mission statement, 100 writers, auditors and meeting
 * coordinators each with name, email and avatar: about 50 KB of JSON apiece), then for each
 * concurrency in BENCH_CONCURRENCY (default 1,20,50) starts a fresh service process, fires that
 * many `GET /projects` at once (JSON, read to the end), and reads the process's peak resident
 * set (VmHWM) before and after. BENCH_ACCEPT picks the format (application/json by default);
 * UNPAGED_LIST_CONCURRENCY and UNPAGED_LIST_QUEUE_MS pass through to the service (see README).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, urlOfDatabase } from '@repo/testing/bench';
import { Client } from 'pg';
import { mintToken } from '../src/auth/development-token';
import { migrationRunner } from '../src/db/migration-runner';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,20,50').split(',').map(Number);
const ACCEPT = process.env.BENCH_ACCEPT ?? 'application/json';
const MEMBERS = 100;
const SECRET = 'list-memory-bench-secret-0123456789';
const DATABASE = 'project_service_list_memory';

function databaseUrl(name: string): string {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('set DATABASE_URL to a PostgreSQL server (the user needs CREATEDB)');
  return urlOfDatabase(base, name);
}

async function prepareDatabase(): Promise<string> {
  const admin = new Client({ connectionString: databaseUrl('postgres') });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  const url = databaseUrl(DATABASE);
  await migrationRunner.applyMigrations({ kind: 'postgres', url });
  const client = new Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ count: string }>(
    `SELECT count(*) FROM projects WHERE slug LIKE 'bench-%'`,
  );
  const have = Number(rows[0]!.count);
  if (have < PROJECTS) {
    console.log(`seeding ${PROJECTS - have} projects...`);
    await client.query(
      `INSERT INTO projects (uid, slug, name, description, parent_uid, mission_statement, website_url, updated_at)
       SELECT gen_random_uuid(), 'bench-' || i, 'Bench project ' || lpad(i::text, 6, '0'),
              repeat('A long description. ', 400), (SELECT uid FROM projects WHERE slug = 'root'),
              repeat('A long mission statement. ', 307), 'https://example.com/project/' || i, now()
       FROM generate_series($1::int + 1, $2::int) AS i`,
      [have, PROJECTS],
    );
    await client.query(
      `INSERT INTO project_members (project_uid, role, position, username, name, email, avatar)
       SELECT p.uid, r.role, g.pos, 'user-' || g.pos, 'User Number ' || g.pos, 'user' || g.pos || '@example.com',
              'https://avatars.example.com/u/' || g.pos || '?s=460&v=4'
       FROM projects p
       CROSS JOIN (VALUES ('writer'), ('auditor'), ('meeting_coordinator')) AS r(role)
       CROSS JOIN generate_series(0, $1::int - 1) AS g(pos)
       WHERE p.slug LIKE 'bench-%'
         AND NOT EXISTS (SELECT 1 FROM project_members m WHERE m.project_uid = p.uid)`,
      [MEMBERS],
    );
  }
  await client.end();
  return url;
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

let PORT = 0;

async function startService(url: string): Promise<ChildProcess> {
  PORT = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'list-memory-server.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(PORT),
      JWT_SECRET: SECRET,
      ADMIN_PRINCIPALS: 'bench-admin',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // Room for every list at once: the bench measures memory, not pool waits.
      DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX ?? '60',
      DATABASE_CONNECT_TIMEOUT_MS: process.env.DATABASE_CONNECT_TIMEOUT_MS ?? '120000',
      DATABASE_STATEMENT_TIMEOUT_MS: process.env.DATABASE_STATEMENT_TIMEOUT_MS ?? '120000',
    },
    stdio: ['ignore', process.env.BENCH_SERVICE_LOG ? 'inherit' : 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('the service did not become ready');
}

async function fullList(token: string): Promise<{ status: number; bytes: number }> {
  const response = await fetch(`http://127.0.0.1:${PORT}/projects`, {
    headers: { Authorization: `Bearer ${token}`, Accept: ACCEPT },
  });
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return { status: response.status, bytes };
}

async function measure(child: ChildProcess, token: string, concurrency: number): Promise<void> {
  // Warm up: one small paged request, so the idle figure includes loaded code.
  await fetch(`http://127.0.0.1:${PORT}/projects?page_size=1`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const idle = peakRssMb(child.pid!);
  const started = Date.now();
  const results = await Promise.all(Array.from({ length: concurrency }, () => fullList(token)));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const peak = peakRssMb(child.pid!);
  const statuses = results.reduce<Record<number, number>>(
    (counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
    {},
  );
  const mib = (Math.max(...results.map((result) => result.bytes)) / 2 ** 20).toFixed(1);
  console.log(
    `${String(concurrency).padStart(10)} | ${JSON.stringify(statuses)} | ${mib} | ${seconds} | ${idle} MB | ${peak} MB`,
  );
}

async function main(): Promise<void> {
  const url = await prepareDatabase();
  const token = mintToken(SECRET, { principal: 'bench-admin' });
  console.log(`${PROJECTS} large projects, ${ACCEPT}`);
  console.log('concurrent | statuses | MiB per list | seconds | peak RSS idle | peak RSS under load');
  for (const concurrency of CONCURRENCY) {
    const child = await startService(url);
    try {
      await measure(child, token, concurrency);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * The HTTP bench of project-service against its baseline (bench/baseline/), through the shared
 * harness (@repo/testing/bench: build, throwaway database, start-up timing, rounds, settings).
 *
 *   npx tsx bench/run.ts          (pnpm run bench runs the codec bench first)
 *
 * Seeds 10,000 projects (bench/seed.ts), measures the unpaged list's time and memory ("full list"
 * in BENCH_SCENARIOS), then loads the reads and writes below as a writer inherited from level 1
 * (the DELETE's leaves are made anew for each run: doomedProjects in bench/seed.ts); last, the writes with change events on (bench/events.ts, "events" in BENCH_SCENARIOS).
 */
import path from 'node:path';
import jwt from 'jsonwebtoken';
import {
  benchAgainstBaseline,
  median,
  selected,
  settingsFromEnvironment,
  withClient,
  type BenchResults,
  type Measurement,
  type Scenario,
  type ServerProcess,
} from '@repo/testing/bench';
import { eventSections } from './events';
import { ADMIN, BENCH_TREE, bigParentSlug, CALLER, deepProjects, doomedProjects, seedProjects } from './seed';

const APP_DIR = path.resolve(__dirname, '..');
const JWT_SECRET = 'project-service-bench-secret-0123456789';
const ADMIN_GROUP = 'project-admins';
const token = (principal: string) =>
  jwt.sign({ principal, sub: principal }, JWT_SECRET, { algorithm: 'HS256', expiresIn: '12h' });

const authorization = (principal: string) => ({ authorization: `Bearer ${token(principal)}` });

function scenarios(databaseUrl: string, deep: string[]): Scenario[] {
  const reader = authorization(CALLER);
  const json = { ...reader, 'content-type': 'application/json' };
  // Writes: eight projects per connection at 64, so no two requests in flight race for one ETag.
  const writeTargets = deep.slice(0, 512);
  const readPaths = (suffix: string) => deep.slice(512, 712).map((uid) => `/projects/${uid}${suffix}`);
  // The DELETE scenario's projects are new leaves under the last of them, more than a run deletes
  // (the limit deleted 8,000 a second here at 16 connections: with fewer, the rest of a run measured
  // 404s).
  const doomedParent = deep[712]!;
  const doomedPerRun = Math.ceil(15_000 * settingsFromEnvironment().duration);
  const bigParent = withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ uid: string }>(
      `SELECT uid::text AS uid FROM projects WHERE slug = $1`,
      [bigParentSlug(BENCH_TREE)],
    );
    return rows[0]!.uid;
  });
  const projectRows = () =>
    withClient(databaseUrl, async (client) => {
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
            body: settingsBody(row.slug),
          })),
        },
      }),
    },
    {
      // Every connection writes the same project without If-Match: the writes queue on its row.
      name: 'PUT /projects/{uid}/settings (no If-Match, one project)',
      load: async () => {
        const [row] = await projectRows();
        return {
          method: 'PUT',
          headers: json,
          mode: { kind: 'cycle', paths: [`/projects/${row!.uid}/settings`], body: settingsBody(row!.slug) },
        };
      },
    },
    {
      name: 'DELETE /projects/{uid} (If-Match)',
      load: async () => ({
        method: 'DELETE',
        headers: reader,
        mode: {
          kind: 'per-connection',
          targets: (
            await withClient(databaseUrl, (client) => doomedProjects(client, doomedParent, doomedPerRun))
          ).map((uid) => ({ path: `/projects/${uid}`, etag: '"b1"' })),
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

export function runHttpBench(): Promise<BenchResults> {
  return benchAgainstBaseline({
    app: 'project-service',
    appDir: APP_DIR,
    environment: { JWT_SECRET, ADMIN_PRINCIPALS: ADMIN, ADMIN_GROUP },
    seed: {
      description: '10,000 projects, 6 levels',
      run: async (client) => {
        await seedProjects(client);
        return deepProjects(client, 713);
      },
    },
    measure: async (servers) =>
      selected('full list')
        ? merge(await fullList(servers.service, 'service'), await fullList(servers.baseline, 'baseline'))
        : [],
    scenarios: async (_servers, deep, databaseUrl) => scenarios(databaseUrl, deep),
    layers: ['GET /projects/{uid}', 'GET /projects/{uid}/settings'],
    caller: 'writer inherited from level 1, reading level 6',
    variants: async (context) => {
      const all = scenarios(context.databaseUrl, context.seeded);
      const named = (name: string) => all.find((scenario) => scenario.name === name)!;
      const base = named('PUT /projects/{uid} (If-Match)');
      return eventSections(
        context,
        [named('POST /projects'), base, named('PUT /projects/{uid}/settings (If-Match)')],
        base,
      );
    },
  });
}

/** A settings write's body for the project with this slug. */
function settingsBody(slug: string): string {
  return JSON.stringify({
    mission_statement: `The mission of ${slug}, restated by the bench.`,
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
  });
}

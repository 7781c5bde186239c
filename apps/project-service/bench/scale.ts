/**
 * The scale bench: the service's reads on 2,000 projects (1×) and on 200,000 (100×), both trees 8
 * levels deep (bench/seed.ts), side by side in one run (@repo/testing/bench's benchAtScales).
 *
 *   pnpm run bench:scale        (npm run bench:scale -- project-service at the root)
 *
 * Each probe is one connection's latency; the target is the 100× mean within 1.5× of the 1× mean.
 * Last, the unpaged list of every project: its time, and the server's peak RSS growth (at most
 * 64 MiB at 200,000 projects: it streams).
 */
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { benchAtScales, median, type ScaleProbe, type ServerProcess } from '@repo/testing/bench';
import { ADMIN, bigParentSlug, CALLER, deepProjects, seedProjects, type TreeShape } from './seed';

const APP_DIR = path.resolve(__dirname, '..');
const JWT_SECRET = 'project-service-bench-secret-0123456789';
const token = (principal: string) =>
  jwt.sign({ principal, sub: principal }, JWT_SECRET, { algorithm: 'HS256', expiresIn: '12h' });

const SMALL: TreeShape = { projects: 2_000, levels: 8 };
const LARGE: TreeShape = { projects: 200_000, levels: 8 };

interface Seeded {
  shape: TreeShape;
  /** Last-level projects the caller writes through level 1. */
  deep: string[];
  bigParent: string;
  /** The page token of the row in the middle of the whole list (byte order of name, then uid). */
  middleToken: string;
  /** A slug in the middle of the tree. */
  someSlug: string;
}

async function seed(client: Parameters<typeof seedProjects>[0], shape: TreeShape): Promise<Seeded> {
  await seedProjects(client, shape);
  const deep = await deepProjects(client, 100, shape);
  const one = async (sql: string, parameters: unknown[]) =>
    (await client.query<Record<string, string>>(sql, parameters)).rows[0]!;
  const bigParent = (
    await one('SELECT uid::text AS uid FROM projects WHERE slug = $1', [bigParentSlug(shape)])
  ).uid!;
  // Page tokens are the last row's (name, uid), base64url (src/http/page-token.ts).
  const middle = await one(
    'SELECT name, uid::text AS uid FROM projects ORDER BY name COLLATE "C", uid OFFSET $1 LIMIT 1',
    [Math.floor(shape.projects / 2)],
  );
  const middleToken = Buffer.from(JSON.stringify([middle.name, middle.uid]), 'utf8').toString('base64url');
  return { shape, deep, bigParent, middleToken, someSlug: `project-${Math.floor(shape.projects / 2)}` };
}

function probes(seeded: Seeded): ScaleProbe[] {
  const writer = { authorization: `Bearer ${token(CALLER)}` };
  const admin = { authorization: `Bearer ${token(ADMIN)}` };
  const cycle = (paths: string[]) => ({ kind: 'cycle' as const, paths });
  const get = (name: string, headers: Record<string, string>, paths: string[]): ScaleProbe => ({
    name,
    method: 'GET',
    headers,
    mode: cycle(paths),
  });
  const deepPaths = (suffix = '') => seeded.deep.map((uid) => `/projects/${uid}${suffix}`);
  return [
    get('GET /projects/{uid} (writer from level 1)', writer, deepPaths()),
    get('GET /projects/{uid}/settings (writer from level 1)', writer, deepPaths('/settings')),
    get('GET /projects/{uid} (admin)', admin, deepPaths()),
    get('GET /projects?slug (admin)', admin, [`/projects?slug=${seeded.someSlug}`]),
    get('GET /projects?page_size=20 (admin, first page)', admin, ['/projects?page_size=20']),
    get('GET /projects?page_size=20 (admin, middle page)', admin, [
      `/projects?page_size=20&page_token=${seeded.middleToken}`,
    ]),
    get('GET /projects?page_size=20 (writer, first page)', writer, ['/projects?page_size=20']),
    get('GET /projects?page_size=20 (writer, middle page)', writer, [
      `/projects?page_size=20&page_token=${seeded.middleToken}`,
    ]),
    get('GET /projects?parent_uid&page_size=20 (writer)', writer, [
      `/projects?parent_uid=${seeded.bigParent}&page_size=20`,
    ]),
  ];
}

/** The unpaged list of every project (an admin's): time and the server's peak RSS growth, median of 3. */
async function unpagedList(server: ServerProcess) {
  const headers = { authorization: `Bearer ${token(ADMIN)}` };
  const times: number[] = [];
  const growth: number[] = [];
  for (let run = 0; run < 3; run++) {
    const before = server.memory().rssMiB;
    server.resetPeak();
    const started = performance.now();
    const response = await fetch(`${server.url}/projects`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`unpaged list answered ${response.status}`);
    times.push(performance.now() - started);
    growth.push(server.memory().peakMiB - before);
  }
  return [
    { name: 'unpaged list of every project: time', value: median(times), unit: 'ms' },
    {
      name: 'unpaged list of every project: peak RSS growth',
      value: Math.max(...growth),
      unit: 'MiB',
      limit: 64,
    },
  ];
}

void benchAtScales<Seeded>({
  app: 'project-service',
  appDir: APP_DIR,
  environment: { JWT_SECRET, ADMIN_PRINCIPALS: ADMIN },
  scales: [
    {
      label: '1×',
      description: '2,000 projects, 8 levels',
      seed: (client) => seed(client, SMALL),
    },
    {
      label: '100×',
      description: '200,000 projects, 8 levels',
      seed: (client) => seed(client, LARGE),
    },
  ],
  probes: async (seeded) => probes(seeded),
  measure: (server) => unpagedList(server),
});

/**
 * The HTTP bench of code-hosting-api against its baseline (bench/baseline/), through the shared
 * harness (@repo/testing/bench: build, throwaway database, start-up timing, rounds, settings).
 *
 *   npx tsx bench/run.ts          (pnpm run bench runs the attachment bench first)
 *
 * The service's first start migrates the database and bootstraps its administrator; bench/seed.ts
 * then seeds accounts, organizations, repositories, issues and feed, and five attachments are
 * uploaded through the API before the loads. The service keeps attachments on disk in a
 * temporary folder, removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  benchAgainstBaseline,
  type BenchResults,
  type Scenario,
  type ServerProcess,
  withClient,
} from '@repo/testing/bench';
import { seedAccounts, tokenSecret } from './seed';

const APP_DIR = path.resolve(__dirname, '..');
/** The same public URL for both servers, so their bodies can be byte-identical. */
const ROOT_URL = 'http://code.bench.example/';
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password-0123' };

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

/** Organizations `user1` owns, for the edit scenario (made on first use: the reads run before it). */
async function ownedOrganizations(databaseUrl: string, count: number): Promise<string[]> {
  return withClient(databaseUrl, async (client) => {
    await client.query(
      `INSERT INTO accounts (name, lower_name, full_name, email, type, visibility, description, website, location,
         created_at, updated_at)
       SELECT 'owned' || i, 'owned' || i, 'Owned ' || i, 'owned' || i || '@example.org', 'organization', 'public',
         'An organization user1 owns.', 'https://owned' || i || '.example.org', 'Remote', now(), now()
       FROM generate_series(1, $1::int) AS i
       ON CONFLICT (lower_name) DO NOTHING`,
      [count],
    );
    await client.query(
      `INSERT INTO teams (org_id, name, lower_name, description, permission, can_create_org_repo, includes_all_repositories)
       SELECT o.id, 'Owners', 'owners', '', 'owner', true, true FROM accounts o
       WHERE o.lower_name LIKE 'owned%' AND NOT EXISTS (SELECT 1 FROM teams t WHERE t.org_id = o.id)`,
    );
    await client.query(
      `INSERT INTO team_members (team_id, account_id)
       SELECT t.id, u.id FROM teams t JOIN accounts o ON o.id = t.org_id, accounts u
       WHERE o.lower_name LIKE 'owned%' AND u.lower_name = 'user1'
       ON CONFLICT DO NOTHING`,
    );
    return Array.from({ length: count }, (_, i) => `owned${i + 1}`);
  });
}

/**
 * One attachment row on issue 3 of each repository user1 may write through a team (metadata only: a
 * rename does not touch the stored object), made on first use after the reads; their paths.
 */
async function renamedAttachments(databaseUrl: string): Promise<string[]> {
  const issues = `SELECT i.id, i.repo_id, o.name AS org, r.name AS repo FROM issues i
    JOIN repositories r ON r.id = i.repo_id JOIN accounts o ON o.id = r.owner_id
    WHERE i.index = 3 AND EXISTS (SELECT 1 FROM teams t JOIN team_members m ON m.team_id = t.id
      WHERE t.org_id = o.id AND t.permission IN ('write', 'admin', 'owner') AND t.includes_all_repositories
        AND m.account_id = (SELECT id FROM accounts WHERE lower_name = 'user1'))`;
  return withClient(databaseUrl, async (client) => {
    await client.query(
      `INSERT INTO attachments (uuid, repo_id, issue_id, uploader_id, name, content_type, size)
       SELECT gen_random_uuid()::text, w.repo_id, w.id, (SELECT id FROM accounts WHERE lower_name = 'user1'),
         'crash-' || w.id || '.log', 'text/plain', 4096
       FROM (${issues}) w WHERE NOT EXISTS (SELECT 1 FROM attachments a WHERE a.issue_id = w.id)`,
    );
    const { rows } = await client.query<{ path: string }>(
      `SELECT '/api/v1/repos/' || w.org || '/' || w.repo || '/issues/3/assets/' || a.id AS path
       FROM (${issues}) w JOIN attachments a ON a.issue_id = w.id ORDER BY a.id`,
    );
    return rows.map((row) => row.path);
  });
}

function scenarios(attachments: string[], databaseUrl: string): Scenario[] {
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
    // The writes last: what they add is not in the reads' data.
    {
      name: 'POST /orgs',
      load: async () => ({
        method: 'POST',
        headers: { ...reader, 'content-type': 'application/json' },
        mode: {
          kind: 'unique',
          path: '/api/v1/orgs',
          template: JSON.stringify({
            username: 'made-{{n}}',
            full_name: 'Made by the bench {{n}}',
            description: 'An organization the bench creates.',
            website: 'https://made.example.org',
            location: 'Remote',
            visibility: 'public',
          }),
        },
      }),
    },
    {
      name: 'PATCH /orgs/{org}',
      load: async () => ({
        method: 'PATCH',
        headers: { ...reader, 'content-type': 'application/json' },
        // One request per organization at a time, in turn: no two in flight write one row.
        mode: {
          kind: 'per-connection',
          targets: (await ownedOrganizations(databaseUrl, 256)).map((org) => ({
            path: `/api/v1/orgs/${org}`,
            body: JSON.stringify({ description: `Edited by the bench: ${org}.`, location: 'Somewhere else' }),
          })),
        },
      }),
    },
    {
      name: 'PATCH /repos/{o}/{r}/issues/{i}/assets/{id}',
      load: async () => ({
        method: 'PATCH',
        headers: { ...reader, 'content-type': 'application/json' },
        mode: {
          kind: 'per-connection',
          targets: (await renamedAttachments(databaseUrl)).map((path) => ({
            path,
            body: JSON.stringify({ name: `renamed-by-the-bench-${path.split('/').at(-1)}.log` }),
          })),
        },
      }),
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
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-code-hosting-'));
  try {
    return await benchAgainstBaseline({
      app: 'code-hosting-api',
      appDir: APP_DIR,
      environment: {
        ROOT_URL,
        DATA_DIR: dataDir,
        ATTACHMENT_STORAGE: 'disk',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      },
      seed: {
        description:
          '1,000 users, 1,000 organizations with 3 teams, 5,000 repositories, 20,000 issues, 50,000 feed rows',
        run: (client) => seedAccounts(client, ADMIN.username),
      },
      scenarios: async (servers, _seeded, databaseUrl) =>
        scenarios(await uploadAttachments(servers.service), databaseUrl),
      layers: ['GET /orgs/{org}'],
      caller: 'user1 (all-scope token), a member of 1 organization in 30',
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The scale bench: the service's hot reads on bench/scale-seed.ts's SCALE_1X (100 organizations,
 * 1,000 users, 10,000 feed rows) and SCALE_100X (10,000 organizations, 100,000 users, 1,000,000
 * feed rows, 100,000 attachments), side by side in one run (@repo/testing/bench's benchAtScales).
 *
 *   pnpm run bench:scale        (npm run bench:scale -- code-hosting-api at the root)
 *
 * Each probe is one connection's latency, cycling over many organizations (or one, where the
 * probe is about one of the busiest: its feed); the target is the 100× mean within 1.5× of the 1×
 * mean. The last /orgs page is Gitea's offset paging (?page=N), whose cost grows with N, as in
 * Gitea: it is shown without a target, for what it costs on the last page at each size.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'pg';
import { benchAtScales, type Scale, type ScaleProbe } from '@repo/testing/bench';
import {
  SCALE_1X,
  SCALE_100X,
  SCALE_CALLER,
  scaleCallerOrganizations,
  scaleOrgName,
  scaleOrgVisibility,
  scaleRepositoryName,
  scaleRepositoryPrivate,
  scaleTokenSecret,
  scaleUserName,
  seedScale,
  type ScaleShape,
} from './scale-seed';

const APP_DIR = path.resolve(__dirname, '..');
const ADMIN = { username: 'root', password: 'scale-bench-password-0123' };
/** The administrator's token, written by the seed below (the seeder gives tokens to users only). */
const ADMIN_TOKEN = createHash('sha1').update('scale-bench-admin').digest('hex');
const api = '/api/v1';

interface Seeded {
  shape: ScaleShape;
  /** The day of organization 1's latest feed rows (YYYY-MM-DD). */
  feedDate: string;
  /** An issue of organization 1's first repository that has attachments. */
  attachedIssue: number;
}

async function seed(client: Client, shape: ScaleShape): Promise<Seeded> {
  await seedScale(client, shape, { passwordOf: ADMIN.username });
  await client.query(
    `INSERT INTO access_tokens (account_id, name, token_hash, token_last_eight, scopes)
     SELECT id, 'scale-bench', encode(sha256(convert_to($2, 'UTF8')), 'hex'), right($2, 8), 'all'
     FROM accounts WHERE lower_name = $1`,
    [ADMIN.username, ADMIN_TOKEN],
  );
  const { rows } = await client.query<{ day: string; issue: number }>(
    `SELECT (SELECT to_char(max(a.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM actions a
               JOIN repositories r ON r.id = a.repo_id JOIN accounts o ON o.id = r.owner_id
             WHERE o.lower_name = lower($1)) AS day,
            (SELECT min(i.index) FROM issues i JOIN attachments x ON x.issue_id = i.id
               JOIN repositories r ON r.id = i.repo_id JOIN accounts o ON o.id = r.owner_id
             WHERE o.lower_name = lower($1) AND r.lower_name = $2) AS issue`,
    [scaleOrgName(1), scaleRepositoryName(1, 1)],
  );
  const { day, issue } = rows[0]!;
  if (!day || !issue) throw new Error('organization 1 has no feed or no attachments');
  return { shape, feedDate: day, attachedIssue: issue };
}

/** 100 organizations spread over the whole range (at 1×, every one), less the private ones. */
function spreadOrganizations(shape: ScaleShape): number[] {
  const count = Math.min(100, shape.organizations);
  return Array.from({ length: count }, (_, k) => 1 + Math.floor((k * shape.organizations) / count)).filter(
    (o) => scaleOrgVisibility(o) !== 'private',
  );
}

/** A public repository of organization o (a public organization's first or second). */
function publicRepository(o: number): string {
  return scaleRepositoryName(o, scaleRepositoryPrivate(o, 1) ? 2 : 1);
}

/** The last page of 50 of /orgs for the caller: every organization but the private ones it is not in. */
function lastOrgsPage(shape: ScaleShape): number {
  const privateOnes = Array.from({ length: shape.organizations }, (_, o) => o + 1).filter(
    (o) => scaleOrgVisibility(o) === 'private' && !scaleCallerOrganizations(shape).includes(o),
  ).length;
  return Math.ceil((shape.organizations - privateOnes) / 50);
}

function probes({ shape, feedDate, attachedIssue }: Seeded): ScaleProbe[] {
  const user = { authorization: `token ${scaleTokenSecret(SCALE_CALLER)}` };
  const admin = { authorization: `token ${ADMIN_TOKEN}` };
  const basic = {
    authorization: `Basic ${Buffer.from(`${scaleUserName(SCALE_CALLER)}:${ADMIN.password}`).toString('base64')}`,
  };
  const get = (name: string, headers: Record<string, string>, paths: string[]): ScaleProbe => ({
    name,
    method: 'GET',
    headers,
    mode: { kind: 'cycle', paths },
  });
  const orgs = spreadOrganizations(shape);
  const org = scaleOrgName(1);
  const repo = scaleRepositoryName(1, 1);
  const caller = scaleUserName(SCALE_CALLER);
  const lastPage = lastOrgsPage(shape);
  return [
    get('GET /user (token)', user, [`${api}/user`]),
    get('GET /user (Basic, trusted address)', basic, [`${api}/user`]),
    get(
      'GET /orgs/{org} (user, 100 organizations)',
      user,
      orgs.map((o) => `${api}/orgs/${scaleOrgName(o)}`),
    ),
    get(
      'GET /users/{user}/orgs/{org}/permissions',
      user,
      orgs.map((o) => `${api}/users/${caller}/orgs/${scaleOrgName(o)}/permissions`),
    ),
    get('GET /user/orgs (a member of 10)', user, [`${api}/user/orgs`]),
    get('GET /orgs?limit=50 (user, first page)', user, [`${api}/orgs?page=1&limit=50`]),
    get('GET /orgs?limit=50 (user, page 2)', user, [`${api}/orgs?page=2&limit=50`]),
    get('GET /admin/orgs?limit=50 (first page)', admin, [`${api}/admin/orgs?page=1&limit=50`]),
    get(
      'GET /orgs/{org}/teams (its 10 organizations)',
      user,
      scaleCallerOrganizations(shape).map((o) => `${api}/orgs/${scaleOrgName(o)}/teams`),
    ),
    get(
      'GET /repos/{org}/{repo} (100 organizations)',
      user,
      orgs.map((o) => `${api}/repos/${scaleOrgName(o)}/${publicRepository(o)}`),
    ),
    get(
      'GET /repos/{org}/{repo}/issues (100 organizations)',
      user,
      orgs.map((o) => `${api}/repos/${scaleOrgName(o)}/${publicRepository(o)}/issues?state=all`),
    ),
    get('GET …/issues/{index}/assets', user, [`${api}/repos/${org}/${repo}/issues/${attachedIssue}/assets`]),
    get('GET /orgs/{org}/activities/feeds?date (a busy organization)', user, [
      `${api}/orgs/${org}/activities/feeds?date=${feedDate}`,
    ]),
    get('GET /orgs/{org}/activities/feeds?limit=20 (a busy organization)', user, [
      `${api}/orgs/${org}/activities/feeds?page=1&limit=20`,
    ]),
    // The same offset at both sizes (org 1's feed has about 700 rows at 1×).
    get('GET /orgs/{org}/activities/feeds?page=30&limit=20 (a busy organization)', user, [
      `${api}/orgs/${org}/activities/feeds?page=30&limit=20`,
    ]),
    {
      // Gitea's offset paging (?page=N): the last page reads every row before it, 40 at 1× and
      // 8,950 at 100×, so its cost grows with the data. No target: the README says what it costs.
      ...get('GET /orgs?limit=50 (user, last page)', user, [`${api}/orgs?page=${lastPage}&limit=50`]),
      target: null,
    },
  ];
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scale-code-hosting-'));
const scale = (label: string, shape: ScaleShape): Scale<Seeded> => ({
  label,
  description: `${shape.organizations.toLocaleString('en')} organizations, ${shape.users.toLocaleString('en')} users, ${shape.actions.toLocaleString('en')} feed rows, ${shape.attachments.toLocaleString('en')} attachments`,
  seed: (client) => seed(client, shape),
});

void benchAtScales<Seeded>({
  app: 'code-hosting-api',
  appDir: APP_DIR,
  environment: {
    ROOT_URL: 'http://localhost:3000/',
    DATA_DIR: dataDir,
    ATTACHMENT_STORAGE: 'disk',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  },
  scales: [scale('1×', SCALE_1X), scale('100×', SCALE_100X)],
  probes: async (seeded) => probes(seeded),
}).finally(() => rmSync(dataDir, { recursive: true, force: true }));

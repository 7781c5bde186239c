/**
 * A large, realistic data set written fast with SQL (multi-row INSERT … SELECT over
 * generate_series, as bench/seed.ts does for the HTTP bench, whose data it leaves as it is), in the
 * rows the stores write (src/db/*-store.ts). Its size is a `ScaleShape`: SCALE_100X is 100,000
 * users, 10,000 organizations (70% public, 20% limited, 10% private), each with Gitea's Owners team
 * (2 members) and 2 more teams of 12 (users are in 2.6 organizations on average, most in 2 to 4),
 * 5 repositories per organization (one in five private, all of a private organization), 4 issues
 * and pull requests per repository, 1,000,000 feed rows (`actions`): each repository's creation,
 * then issue and pull request activity from 2026-01-01 to 2026-10-31, a third of it in the busiest
 * 5% of repositories (those of the first organizations), 100,000 issue attachments (rows only: no
 * files), an access token for one user in ten, and the tables the service grows as it is used:
 * collaborations, failed-login counters, trusted logins, the events' outbox (published events) and
 * their sequences. SCALE_1X is a hundredth of it, SCALE_10X a tenth.
 *
 * Names are realistic (`bob.garcia1`, `CloudWorks-1`) and computable (scaleUserName, scaleOrgName).
 * User 1 (SCALE_CALLER) owns organization 1 and is a member of 9 more, a private one among them
 * (scaleCallerOrganizations lists the 10). Every user's password is that of the account named when
 * seeding (the bootstrapped administrator); user i's token (if any) is scaleTokenSecret(i).
 *
 *   npx tsx bench/scale-seed.ts [1x|10x|100x]   (a throwaway database on BENCH_DATABASE_URL's
 *                                                server: migrates, seeds, prints the time, drops it)
 *
 * Run as a superuser (the bench's and the tests' `postgres`), the steps write on three connections
 * at once with the foreign-key triggers off: 100× takes about 26 s on a 2-core machine running other
 * work. Anyone else writes in one transaction on one connection, with the foreign keys checked:
 * more than twice that.
 *
 * Rows get explicit ids (after the largest already there; the sequences are moved past them), so
 * no statement joins to find the rows an earlier one wrote. Seed a database nobody writes to.
 */
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { defaultSettings } from '../src/config';
import { migrationRunner } from '../src/db/migration-runner';
import { hashPassword } from '../src/domain/passwords';

export interface ScaleShape {
  organizations: number;
  users: number;
  /** Teams of each organization besides its Owners team (2 members). */
  teamsPerOrganization: number;
  membersPerTeam: number;
  repositoriesPerOrganization: number;
  issuesPerRepository: number;
  /** Feed rows in all (the `actions` table). */
  actions: number;
  /** Issue attachments in all. */
  attachments: number;
  /** Users 1… with an access token. */
  tokens: number;
}

export const SCALE_100X: ScaleShape = {
  organizations: 10_000,
  users: 100_000,
  teamsPerOrganization: 2,
  membersPerTeam: 12,
  repositoriesPerOrganization: 5,
  issuesPerRepository: 4,
  actions: 1_000_000,
  attachments: 100_000,
  tokens: 10_000,
};

/** SCALE_100X with every total (not the per-organization counts) multiplied by `fraction`. */
export function scaledShape(fraction: number, shape: ScaleShape = SCALE_100X): ScaleShape {
  const scaled = (count: number) => Math.max(1, Math.round(count * fraction));
  return {
    ...shape,
    organizations: scaled(shape.organizations),
    users: scaled(shape.users),
    actions: scaled(shape.actions),
    attachments: scaled(shape.attachments),
    tokens: scaled(shape.tokens),
  };
}

export const SCALE_1X = scaledShape(1 / 100);
export const SCALE_10X = scaledShape(1 / 10);
export const SCALES = { '1x': SCALE_1X, '10x': SCALE_10X, '100x': SCALE_100X } as const;

/** The user every shape makes the first owner of organization 1 and a member of 10 organizations. */
export const SCALE_CALLER = 1;

/** Organization o has SCALE_CALLER in its second team when (o - 1) % step = 0 (10 of them). */
function callerStep(shape: ScaleShape): number {
  // A step prime to 10: ten steps from 1 reach every last digit, so the caller's organizations
  // have every visibility (scaleOrgVisibility: a last digit of 9 is private).
  let step = Math.max(1, Math.floor(shape.organizations / 10));
  while (step % 2 === 0 || step % 5 === 0) step += 1;
  return step;
}

/** The organizations SCALE_CALLER belongs to (1-based): 1, which it owns, and those of its second team. */
export function scaleCallerOrganizations(shape: ScaleShape): number[] {
  const step = callerStep(shape);
  return Array.from({ length: Math.ceil(shape.organizations / step) }, (_, k) => 1 + k * step).slice(0, 10);
}

const FIRST_NAMES = [
  'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory',
  'niaj', 'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor', 'walter', 'yara', 'zoe', 'liam',
  'noah', 'emma', 'ava', 'mia', 'lucas', 'mateo', 'sofia', 'amara', 'kenji', 'priya', 'omar',
  'lena', 'tariq', 'ines', 'felix', 'hana', 'diego', 'nora', 'ravi',
]; // prettier-ignore
const LAST_NAMES = [
  'smith', 'garcia', 'nguyen', 'kowalski', 'rossi', 'tanaka', 'okafor', 'silva', 'kim', 'novak',
  'dubois', 'jensen', 'haddad', 'ivanova', 'patel', 'murphy', 'schmidt', 'lopez', 'cohen',
  'andersen', 'costa', 'mehta', 'fischer', 'moreau', 'sato', 'walsh', 'yilmaz', 'khan', 'berg',
  'reyes', 'lund', 'brown', 'oconnor', 'weber', 'hughes', 'popescu', 'mensah',
]; // prettier-ignore
const ORG_WORDS = [
  'Open', 'Cloud', 'Data', 'Edge', 'Secure', 'Native', 'Rapid', 'Quantum', 'Green', 'North',
  'Bright', 'Silver', 'Iron', 'Polar', 'Solar', 'Urban', 'Deep', 'Clear', 'Swift', 'Prime', 'Blue',
  'Lunar', 'Civic', 'Indie', 'Mosaic', 'Nimbus', 'Vector', 'Orbit', 'Pixel', 'Rust',
]; // prettier-ignore
const ORG_KINDS = [
  'Labs', 'Works', 'Foundation', 'Collective', 'Systems', 'Devs', 'Forge', 'Guild', 'Studio',
  'Network', 'Project', 'Tools', 'Hub', 'Team', 'Software', 'Cooperative', 'Group', 'Initiative',
  'Institute', 'Commons', 'Alliance', 'Company', 'Crew', 'Partners', 'Society', 'Union', 'Makers',
  'Builders', 'Ventures',
]; // prettier-ignore
const LOCATIONS = ['Berlin', 'Lagos', 'São Paulo', 'Tokyo', 'Toronto', 'Remote', 'Bangalore', 'Lyon', ''];
const REPOSITORY_NAMES = [
  'api', 'web', 'docs', 'infra', 'sdk-go', 'cli', 'operator', 'helm-charts', 'website', 'design',
]; // prettier-ignore
/** Team t of every organization: Owners first (Gitea's), then these in turn. */
const TEAMS: [name: string, description: string, permission: string][] = [
  ['Owners', '', 'owner'],
  ['Developers', 'Everyone who writes code', 'write'],
  ['Readers', 'Read access for the wider community', 'read'],
  ['Maintainers', 'Merge rights and releases', 'admin'],
  ['Triage', 'Labels, milestones and first answers', 'read'],
];
const ISSUE_TITLES = [
  'Crash when the config file is empty',
  'Support for ARM64 builds',
  'Docs: the quick start misses a step',
  'Flaky test in the storage package',
  'Upgrade the TLS library',
  'Memory grows after a day of uptime',
  'Add a --dry-run flag',
  'Timeouts behind a proxy',
];
const ATTACHMENTS: [name: string, contentType: string][] = [
  ['screenshot.png', 'image/png'],
  ['crash.log', 'text/plain; charset=utf-8'],
  ['trace.txt', 'text/plain; charset=utf-8'],
  ['design.pdf', 'application/pdf'],
  ['fix.patch', 'text/plain; charset=utf-8'],
  ['recording.mp4', 'video/mp4'],
  ['logs.zip', 'application/zip'],
];

/** User i's name (1-based), as the seeder writes it: `bob.garcia1`. */
export function scaleUserName(i: number): string {
  return `${FIRST_NAMES[i % FIRST_NAMES.length]}.${LAST_NAMES[i % LAST_NAMES.length]}${i}`;
}

/** Organization o's name (1-based): `CloudWorks-1`. */
export function scaleOrgName(o: number): string {
  return `${ORG_WORDS[o % ORG_WORDS.length]}${ORG_KINDS[o % ORG_KINDS.length]}-${o}`;
}

/** Repository r (1-based, of repositoriesPerOrganization) of every organization. */
export function scaleRepositoryName(o: number, r: number): string {
  return `${REPOSITORY_NAMES[(o + r) % REPOSITORY_NAMES.length]}${r > REPOSITORY_NAMES.length ? `-${r}` : ''}`;
}

/** Organization o's visibility (1-based): 70% public, 20% limited, 10% private. */
export function scaleOrgVisibility(o: number): 'public' | 'limited' | 'private' {
  return o % 10 < 7 ? 'public' : o % 10 < 9 ? 'limited' : 'private';
}

/** Whether repository r of organization o is private: every one of a private organization, one in five of the rest. */
export function scaleRepositoryPrivate(o: number, r: number): boolean {
  return scaleOrgVisibility(o) === 'private' || (o + r) % 5 === 0;
}

/** The 40-hex secret of user i's token (users 1 … shape.tokens have one; SCALE_CALLER's has every scope). */
export function scaleTokenSecret(i: number): string {
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  return md5(`scale-token-${i}`) + md5(`scale-token-${i}+`).slice(0, 8);
}

/** The SQL of scaleUserName, scaleOrgName, scaleRepositoryName over the column `i`, `o`, `o`/`r`. */
const sqlArray = (values: string[]) =>
  `(ARRAY[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ')}]::text[])`;
const userNameSql = (i: string) =>
  `${sqlArray(FIRST_NAMES)}[1 + ${i} % ${FIRST_NAMES.length}] || '.' || ${sqlArray(LAST_NAMES)}[1 + ${i} % ${LAST_NAMES.length}] || ${i}`;
const orgNameSql = (o: string) =>
  `${sqlArray(ORG_WORDS)}[1 + ${o} % ${ORG_WORDS.length}] || ${sqlArray(ORG_KINDS)}[1 + ${o} % ${ORG_KINDS.length}] || '-' || ${o}`;
const repositoryNameSql = (o: string, r: string) =>
  `${sqlArray(REPOSITORY_NAMES)}[1 + (${o} + ${r}) % ${REPOSITORY_NAMES.length}] || CASE WHEN ${r} > ${REPOSITORY_NAMES.length} THEN '-' || ${r} ELSE '' END`;
const orgVisibilitySql = (o: string) =>
  `CASE WHEN ${o} % 10 < 7 THEN 'public' WHEN ${o} % 10 < 9 THEN 'limited' ELSE 'private' END`;
/** scaleRepositoryPrivate's SQL. */
const repositoryPrivateSql = (o: string, r: string) => `(${o} % 10 = 9 OR (${o} + ${r}) % 5 = 0)`;
const uuidSql = (seed: string) =>
  `overlay(overlay(md5(${seed}) placing '4' from 13) placing '8' from 17)::uuid`;

/** What seedScale wrote: the id of the first row of each kind is `…Base + 1`. */
export interface ScaleSeedResult {
  shape: ScaleShape;
  /** Account ids: user i is accountBase + i, organization o is accountBase + users + o. */
  accountBase: number;
  repositoryBase: number;
  issueBase: number;
  /** Seconds each step took, in order. */
  steps: [step: string, seconds: number][];
}

export interface SeedOptions {
  /** The account whose password hash every user gets (none when undefined). */
  passwordOf?: string;
  /**
   * Connections to write on at once, `client` and more like it (3). Only as a superuser, who may
   * turn off the foreign-key triggers: anyone else writes on `client` alone, in order.
   */
  connections?: number;
}

/** One statement of the seed. */
interface Task {
  name: string;
  sql: string;
  params: unknown[];
}

/** Seeds `shape` into a migrated database (the service's rows, after any already there), and analyzes it. */
export async function seedScale(
  client: Client,
  shape: ScaleShape = SCALE_1X,
  options: SeedOptions = {},
): Promise<ScaleSeedResult> {
  const {
    organizations: O,
    users: U,
    teamsPerOrganization,
    membersPerTeam: M,
    repositoriesPerOrganization: R,
    issuesPerRepository: I,
  } = shape;
  const T = teamsPerOrganization + 1;
  const RR = O * R;
  const II = RR * I;
  const maxId = async (table: string) => {
    const { rows } = await client.query<{ max: string }>(
      `SELECT coalesce(max(id), 0)::text AS max FROM ${table}`,
    );
    return Number(rows[0]!.max);
  };
  const accountBase = await maxId('accounts');
  const orgBase = accountBase + U;
  const teamBase = await maxId('teams');
  const repositoryBase = await maxId('repositories');
  const issueBase = await maxId('issues');
  const actionBase = await maxId('actions');
  const attachmentBase = await maxId('attachments');
  const tasks: Task[] = [];
  const task = (name: string, sql: string, params: unknown[] = []) => tasks.push({ name, sql, params });
  // Timestamps: users joined over 1,400 days from 2022, organizations over 1,300 days from March
  // 2022 (their repositories within 15 days, their issues within 20 more), the feed is 2026's.
  const userJoined = (i: string) =>
    `timestamptz '2022-01-01Z' + ${i} * ${(1400 * 86400) / U} * interval '1 second'`;
  const orgCreated = (o: string) =>
    `timestamptz '2022-03-01Z' + ${o} * ${(1300 * 86400) / O} * interval '1 second'`;
  const repoCreated = (o: string, r: string) => `${orgCreated(o)} + ${r} * interval '3 days'`;
  const feedSpanSeconds = 304 * 86400;

  // Users and organizations in one statement, in the order they joined: organizations lie among
  // the users in the table, as they do in use (a read of the organizations alone reads most pages).
  task(
    'accounts',
    `INSERT INTO accounts (id, name, lower_name, full_name, email, type, visibility, description, website,
       location, password_hash, repo_admin_change_team_access, created_at, updated_at, last_login_at)
     SELECT * FROM (
       SELECT ${accountBase} + i, n.name, n.name,
         initcap(${sqlArray(FIRST_NAMES)}[1 + i % ${FIRST_NAMES.length}]) || ' '
           || initcap(${sqlArray(LAST_NAMES)}[1 + i % ${LAST_NAMES.length}]),
         n.name || '@example.org', 'user',
         CASE WHEN i % 50 = 49 THEN 'private' WHEN i % 50 >= 45 THEN 'limited' ELSE 'public' END,
         CASE WHEN i % 3 = 0 THEN '' ELSE 'Writes code for a living, mostly ' || (ARRAY['Go', 'Rust', 'TypeScript', 'Python'])[1 + i % 4] || '.' END,
         CASE WHEN i % 4 = 0 THEN 'https://' || replace(n.name, '.', '-') || '.example.org' ELSE '' END,
         ${sqlArray(LOCATIONS)}[1 + i % ${LOCATIONS.length}],
         (SELECT password_hash FROM accounts WHERE lower_name = lower($1::text)), false,
         ${userJoined('i')} AS created_at, ${userJoined('i')} + (i % 90) * interval '1 day',
         CASE WHEN i % 5 < 3 THEN timestamptz '2026-10-01Z' + (i % 30) * interval '1 day' END
       FROM generate_series(1, ${U}) AS i
       CROSS JOIN LATERAL (SELECT ${userNameSql('i')} AS name) AS n
       UNION ALL
       SELECT ${orgBase} + o, n.name, lower(n.name), replace(n.name, '-', ' ') || ' Inc.',
         'contact@' || lower(n.name) || '.example.org', 'organization', ${orgVisibilitySql('o')},
         'We build ' || (ARRAY['tools', 'platforms', 'libraries', 'services'])[1 + o % 4] || ' in the open.',
         'https://' || lower(n.name) || '.example.org', ${sqlArray(LOCATIONS)}[1 + o % ${LOCATIONS.length}],
         NULL, o % 2 = 0, ${orgCreated('o')}, ${orgCreated('o')} + (o % 200) * interval '1 day', NULL
       FROM generate_series(1, ${O}) AS o
       CROSS JOIN LATERAL (SELECT ${orgNameSql('o')} AS name) AS n
     ) AS a ORDER BY created_at`,
    [options.passwordOf ?? null],
  );
  task(
    'teams',
    `INSERT INTO teams (id, org_id, name, lower_name, description, permission, can_create_org_repo,
       includes_all_repositories, created_at)
     SELECT ${teamBase} + (o - 1) * ${T} + t + 1, ${orgBase} + o, d.name, lower(d.name), d.description, d.permission,
       d.permission IN ('owner', 'admin', 'write'), d.permission = 'owner' OR t % 2 = 1,
       ${orgCreated('o')} + t * interval '1 hour'
     FROM generate_series(1, ${O}) AS o CROSS JOIN generate_series(0, ${T - 1}) AS t
     CROSS JOIN LATERAL (SELECT
       CASE WHEN t < ${TEAMS.length} THEN ($1::text[])[1 + t] ELSE 'Team ' || t END AS name,
       CASE WHEN t < ${TEAMS.length} THEN ($2::text[])[1 + t] ELSE '' END AS description,
       CASE WHEN t < ${TEAMS.length} THEN ($3::text[])[1 + t] ELSE 'read' END AS permission) AS d`,
    [TEAMS.map((team) => team[0]), TEAMS.map((team) => team[1]), TEAMS.map((team) => team[2])],
  );
  // Member j of team t of organization o: a user other than SCALE_CALLER spread by a stride prime
  // to users - 1 (so distinct within the team), but for the caller's places: the first owner of
  // organization 1, the first of the second team of scaleCallerOrganizations.
  let stride = 15485863;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  while (gcd(stride, U - 1) !== 1) stride += 2;
  task(
    'team members',
    `INSERT INTO team_members (team_id, account_id)
     SELECT ${teamBase} + (o - 1) * ${T} + t + 1,
       ${accountBase} + CASE WHEN j = 0 AND ((o = 1 AND t = 0) OR ((o - 1) % ${callerStep(shape)} = 0 AND o <= ${1 + 9 * callerStep(shape)} AND t = 1))
           THEN ${SCALE_CALLER}
           ELSE 2 + (o::bigint * 7919 + t * 104729 + j::bigint * ${stride}) % ${U - 1} END
     FROM generate_series(1, ${O}) AS o CROSS JOIN generate_series(0, ${T - 1}) AS t
     CROSS JOIN LATERAL generate_series(0, CASE WHEN t = 0 THEN 1 ELSE ${M - 1} END) AS j`,
  );
  task(
    'repositories',
    `INSERT INTO repositories (id, owner_id, name, lower_name, description, website, is_private, is_archived,
       archived_at, last_issue_index, created_at, updated_at)
     SELECT ${repositoryBase} + (o - 1) * ${R} + r, ${orgBase} + o, n.name, n.name,
       'The ' || n.name || ' of ' || ${orgNameSql('o')} || '.', CASE WHEN r = 1 THEN 'https://' || ${orgNameSql('o')} || '.example.org' ELSE '' END,
       ${repositoryPrivateSql('o', 'r')}, (o + r) % 23 = 0,
       CASE WHEN (o + r) % 23 = 0 THEN timestamptz '2026-06-01Z' + (o % 100) * interval '1 day' END,
       ${I}, ${repoCreated('o', 'r')}, ${repoCreated('o', 'r')} + interval '300 days'
     FROM generate_series(1, ${O}) AS o CROSS JOIN generate_series(1, ${R}) AS r
     CROSS JOIN LATERAL (SELECT ${repositoryNameSql('o', 'r')} AS name) AS n`,
  );
  // One outside collaborator on every other repository.
  task(
    'collaborations',
    `INSERT INTO collaborations (repo_id, account_id, permission)
     SELECT ${repositoryBase} + g, ${accountBase} + 1 + (g::bigint * 48271) % ${U},
       (ARRAY['read', 'write', 'admin'])[1 + g % 3]
     FROM generate_series(2, ${RR}, 2) AS g`,
  );
  task(
    'issues',
    `INSERT INTO issues (id, repo_id, index, poster_id, title, body, is_closed, is_pull, head_branch, base_branch,
       closed_at, created_at, updated_at)
     SELECT ${issueBase} + ((o - 1) * ${R} + r - 1) * ${I} + k, ${repositoryBase} + (o - 1) * ${R} + r, k,
       ${accountBase} + 1 + (o::bigint * 31 + r * 7 + k * 17) % ${U},
       ${sqlArray(ISSUE_TITLES)}[1 + (o + r + k) % ${ISSUE_TITLES.length}],
       'Steps to reproduce: run it as the docs say. Expected it to work, it did not. ' || repeat('Logs attached. ', 8),
       k % 3 = 0, k % 4 = 0, CASE WHEN k % 4 = 0 THEN 'feature-' || k ELSE '' END,
       CASE WHEN k % 4 = 0 THEN 'main' ELSE '' END,
       CASE WHEN k % 3 = 0 THEN ${repoCreated('o', 'r')} + k * interval '5 days' + interval '2 days' END,
       ${repoCreated('o', 'r')} + k * interval '5 days', ${repoCreated('o', 'r')} + k * interval '5 days' + interval '3 days'
     FROM generate_series(1, ${O}) AS o CROSS JOIN generate_series(1, ${R}) AS r
     CROSS JOIN generate_series(1, ${I}) AS k`,
  );
  // The feed: each repository's create_repo entry when it was made, then the rest through 2026
  // (row n in time order, so ids grow with time as in use), a third of it in the busiest 5% of
  // repositories. Issue and pull request entries carry `index|title` or `index|` (Gitea's).
  const creations = Math.min(RR, shape.actions);
  const activity = shape.actions - creations;
  task(
    'actions (create_repo)',
    `INSERT INTO actions (id, act_user_id, op_type, repo_id, is_private, content, ref_name, created_at)
     SELECT ${actionBase} + x.g, ${accountBase} + 1 + (x.g::bigint * 48271) % ${U}, 'create_repo',
       ${repositoryBase} + x.g, ${repositoryPrivateSql('o', 'r')}, '', '', ${repoCreated('o', 'r')}
     FROM generate_series(1, ${O}) AS o CROSS JOIN generate_series(1, ${R}) AS r
     CROSS JOIN LATERAL (SELECT (o - 1) * ${R} + r AS g) AS x
     WHERE x.g <= ${creations}`,
  );
  const hot = Math.max(1, Math.floor(RR / 20));
  // In chunks of 250,000: with several connections they are written at once.
  const chunk = 250_000;
  for (let from = 0; from < activity; from += chunk) {
    task(
      `actions ${from + 1}…${Math.min(activity, from + chunk)}`,
      `INSERT INTO actions (id, act_user_id, op_type, repo_id, is_private, content, ref_name, created_at)
     SELECT ${actionBase + creations} + n + 1, ${accountBase} + 1 + (n::bigint * 48271) % ${U}, e.op_type,
       ${repositoryBase} + g.g, ${repositoryPrivateSql('g.o', 'g.r')},
       CASE WHEN e.op_type LIKE 'create_%'
            THEN e.k || '|' || ${sqlArray(ISSUE_TITLES)}[1 + (g.o + g.r + e.k) % ${ISSUE_TITLES.length}]
            ELSE e.k || '|' END,
       '', timestamptz '2026-01-01Z' + n * ${feedSpanSeconds / Math.max(1, activity)} * interval '1 second'
     FROM generate_series(${from}, ${Math.min(activity, from + chunk) - 1}) AS n
     CROSS JOIN LATERAL (SELECT CASE WHEN n % 3 = 0 THEN 1 + (n::bigint * 2654435761) % ${hot}
                                     ELSE 1 + (n::bigint * 2654435761) % ${RR} END AS g) AS h
     CROSS JOIN LATERAL (SELECT h.g, (h.g - 1) / ${R} + 1 AS o, (h.g - 1) % ${R} + 1 AS r) AS g
     CROSS JOIN LATERAL (SELECT 1 + n % ${I} AS k,
       (ARRAY['create_issue', 'create_issue', 'create_pull_request', 'close_issue', 'reopen_issue',
              'close_issue', 'close_pull_request', 'reopen_pull_request', 'create_issue', 'close_issue'])[1 + n % 10]
         AS op_type) AS e`,
    );
  }
  // Attachment n on issue q: the first third of the issues carry them, one or two each.
  const attached = Math.max(1, Math.floor(II / 3));
  task(
    'attachments',
    `INSERT INTO attachments (id, uuid, repo_id, issue_id, uploader_id, name, content_type, size, download_count, created_at)
     SELECT ${attachmentBase} + n, ${uuidSql(`'scale-attachment-' || n`)}::text,
       ${repositoryBase} + (q.q - 1) / ${I} + 1, ${issueBase} + q.q,
       ${accountBase} + 1 + (q.q * 17) % ${U},
       'n' || n || '-' || ($1::text[])[1 + n % ${ATTACHMENTS.length}], ($2::text[])[1 + n % ${ATTACHMENTS.length}],
       1024 + (n::bigint * 7919) % 5000000, n % 40,
       ${orgCreated(`((q.q - 1) / ${I * R} + 1)`)} + interval '20 days' + n % 1000 * interval '1 minute'
     FROM generate_series(1, ${shape.attachments}) AS n
     CROSS JOIN LATERAL (SELECT 1 + (n::bigint * 7919) % ${attached} AS q) AS q`,
    [ATTACHMENTS.map((entry) => entry[0]), ATTACHMENTS.map((entry) => entry[1])],
  );
  task(
    'access tokens',
    `INSERT INTO access_tokens (account_id, name, token_hash, token_last_eight, scopes, created_at, last_used_at)
     SELECT ${accountBase} + i, 'scale', encode(sha256(convert_to(t.secret, 'UTF8')), 'hex'), right(t.secret, 8),
       CASE WHEN i % 4 = 1 THEN 'all' WHEN i % 4 = 2 THEN 'read:organization,read:user'
            WHEN i % 4 = 3 THEN 'write:issue,write:repository' ELSE 'read:repository,public-only' END,
       timestamptz '2026-03-01Z' + (i % 200) * interval '1 day',
       CASE WHEN i % 2 = 0 THEN timestamptz '2026-10-01Z' + (i % 50) * interval '1 hour' END
     FROM generate_series(1, ${shape.tokens}) AS i
     CROSS JOIN LATERAL (SELECT md5('scale-token-' || i) || left(md5('scale-token-' || i || '+'), 8) AS secret) AS t`,
  );
  // The login throttle's tables as a month of use leaves them: failures of a user in ten (by
  // account, address and pair), a trusted address for every third user.
  task(
    'login state',
    `INSERT INTO login_failures (kind, key, failures, last_failure_at, blocked_until)
     SELECT k.kind, CASE k.kind WHEN 'account' THEN n.name WHEN 'address' THEN n.address
                                ELSE n.name || E'\\n' || n.address END,
       1 + i % 9, now() - (i % 43200) * interval '1 minute',
       CASE WHEN i % 9 = 8 THEN now() - (i % 43200) * interval '1 minute' + interval '15 minutes' END
     FROM generate_series(1, ${U}, 10) AS i
     CROSS JOIN LATERAL (SELECT ${userNameSql('i')} AS name,
       '198.' || (i / 65536) % 256 || '.' || (i / 256) % 256 || '.' || i % 256 AS address) AS n
     CROSS JOIN (VALUES ('account'), ('address'), ('pair')) AS k (kind)`,
  );
  task(
    'trusted logins',
    `INSERT INTO trusted_logins (account, address, trusted_at)
     SELECT ${userNameSql('i')}, '10.' || (i / 65536) % 256 || '.' || (i / 256) % 256 || '.' || i % 256,
       now() - (i % 29) * interval '1 day'
     FROM generate_series(3, ${U}, 3) AS i`,
  );
  // The events of the organizations' creation and of the attachments, published (kept for replay).
  task(
    'event outbox',
    `WITH events AS (
       SELECT 'orgs' AS aggregate, (${orgBase} + o)::text AS resource_id, 'organization.created' AS type,
         json_build_object('id', ${orgBase} + o, 'name', ${orgNameSql('o')}, 'visibility', ${orgVisibilitySql('o')}) AS data,
         ${orgCreated('o')} AS occurred_at
       FROM generate_series(1, ${O}) AS o
       UNION ALL
       SELECT 'attachments', (${attachmentBase} + n)::text, 'attachment.created',
         json_build_object('id', ${attachmentBase} + n, 'name', 'n' || n), timestamptz '2026-01-01Z' + n * interval '1 minute'
       FROM generate_series(1, ${shape.attachments}) AS n
     ), sequences AS (
       INSERT INTO event_sequences (aggregate, resource_id, last_sequence)
       SELECT aggregate, resource_id, 1 FROM events
     )
     INSERT INTO event_outbox (id, aggregate, resource_id, sequence, type, data, actor, request_id, occurred_at, published_at)
     SELECT ${uuidSql("'scale-event-' || aggregate || resource_id")}, aggregate, resource_id, 1, type, data,
       'scale-seed', NULL, occurred_at, occurred_at + interval '20 milliseconds'
     FROM events ORDER BY occurred_at`,
  );

  const steps: [string, number][] = [];
  const run = async (connection: Client, { name, sql, params }: Task) => {
    const started = performance.now();
    await connection.query(sql, params);
    steps.push([name, (performance.now() - started) / 1000]);
  };
  const { rows } = await client.query<{ superuser: boolean }>(
    "SELECT current_setting('is_superuser') = 'on' AS superuser",
  );
  const parallel = rows[0]!.superuser && (options.connections ?? 3) > 1;
  // More connections like `client`'s: the steps (and the tables' ANALYZE) run at once on them.
  const extra = parallel
    ? await Promise.all(
        Array.from({ length: (options.connections ?? 3) - 1 }, async () => {
          const { host, port, user, password, database, ssl } = client;
          const sibling = new Client({ host, port, user, password, database, ssl });
          await sibling.connect();
          return sibling;
        }),
      )
    : [];
  /** Runs the tasks on every connection at once, each in a transaction of its own. */
  const runAll = (queue: Task[], transaction: string[]) =>
    Promise.all(
      [client, ...extra].map(async (connection) => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          if (transaction.length) await connection.query('BEGIN');
          try {
            for (const setting of transaction) await connection.query(setting);
            await run(connection, next);
            if (transaction.length) await connection.query('COMMIT');
          } catch (error) {
            queue.length = 0;
            if (transaction.length) await connection.query('ROLLBACK');
            throw error;
          }
        }
      }),
    );
  const started = performance.now();
  try {
    if (parallel) {
      // The rows are consistent by construction: no foreign-key check per row (they cost more
      // than the inserts: only a superuser may turn them off), so the steps are independent. The
      // feed's chunks (most of the rows) first, so that no connection is left with one at the end.
      const feedFirst = (name: string) => (name.startsWith('actions') ? 0 : 1);
      await runAll(
        [...tasks].sort((a, b) => feedFirst(a.name) - feedFirst(b.name)),
        ['SET LOCAL synchronous_commit = off', 'SET LOCAL session_replication_role = replica'],
      );
    } else {
      // The foreign keys are checked: one transaction, the steps in order (referenced rows first).
      await client.query('BEGIN');
      try {
        await client.query('SET LOCAL synchronous_commit = off');
        for (const next of tasks) await run(client, next);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    const withIds = ['accounts', 'teams', 'repositories', 'issues', 'actions', 'attachments'];
    await run(client, {
      name: 'sequences',
      sql: `SELECT ${withIds
        .map((table) => `setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`)
        .join(', ')}`,
      params: [],
    });
    steps.push(['(inserts, wall time)', (performance.now() - started) / 1000]);
    const analyzed = performance.now();
    const seeded = [
      ...withIds,
      'team_members',
      'collaborations',
      'access_tokens',
      'login_failures',
      'trusted_logins',
      'event_outbox',
      'event_sequences',
    ];
    await runAll(
      seeded.map((table) => ({ name: `analyze ${table}`, sql: `ANALYZE ${table}`, params: [] })),
      [],
    );
    steps.push(['(analyze, wall time)', (performance.now() - analyzed) / 1000]);
  } finally {
    await Promise.all(extra.map((connection) => connection.end()));
  }
  return { shape, accountBase, repositoryBase, issueBase, steps };
}

/** The password of the command's `root` administrator and so of every user it seeds. */
export const SCALE_SEED_PASSWORD = 'scale-seed-password';

/**
 * `npx tsx bench/scale-seed.ts [1x|10x|100x]`: seeds a throwaway database and prints the time
 * (SCALE_SEED_KEEP=1: keeps it, for experiments, and prints its URL).
 */
async function main(): Promise<void> {
  const name = (process.argv[2] ?? '1x') as keyof typeof SCALES;
  const shape = SCALES[name];
  if (!shape) throw new Error(`the scale is one of ${Object.keys(SCALES).join(', ')}`);
  const serverUrl = process.env['BENCH_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const database = `scale_seed_${process.pid}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    await migrationRunner.applyMigrations({ kind: 'postgres', url: url.toString() });
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    try {
      // The administrator the service bootstraps (account 1, as in the tests and the bench); every
      // user's password is its password, SCALE_SEED_PASSWORD.
      await client.query(
        `INSERT INTO accounts (name, lower_name, email, type, is_admin, password_hash)
         VALUES ('root', 'root', 'root@example.org', 'user', true, $1)`,
        [await hashPassword(SCALE_SEED_PASSWORD, defaultSettings.passwordHashCost)],
      );
      const started = performance.now();
      const { steps } = await seedScale(client, shape, { passwordOf: 'root' });
      const seconds = (performance.now() - started) / 1000;
      for (const [step, took] of steps) console.log(`${step.padEnd(16)} ${took.toFixed(2)} s`);
      const { rows } = await client.query<{ size: string }>(
        'SELECT pg_size_pretty(pg_database_size(current_database())) AS size',
      );
      console.log(`seeded ${name} in ${seconds.toFixed(1)} s (${rows[0]!.size})`);
      if (process.env['SCALE_SEED_KEEP']) {
        console.log(`kept: ${url.toString()}`);
        return;
      }
    } finally {
      await client.end();
    }
    await admin.query(`DROP DATABASE ${database}`);
  } catch (error) {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    throw error;
  } finally {
    await admin.end();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

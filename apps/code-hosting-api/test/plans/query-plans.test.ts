import { Client } from 'pg';
import { sequentialScans, useTestApp } from '@repo/testing';
import {
  SCALE_10X,
  SCALE_CALLER,
  scaleCallerOrganizations,
  scaleOrgName,
  scaleOrgVisibility,
  scaleRepositoryName,
  scaleTokenSecret,
  scaleUserName,
  seedScale,
} from '../../bench/scale-seed';
import { COMMON_TABLES, SERVICE_TABLES } from '../../src/db/unusable-database';
import { createTestApp, openTestStorage, siteAdmin } from '../app';
import { adminAuthorization, api, basic, createToken } from '../actors';
import { deleteStream, eventTestSettings } from '../events/event-stream';

// Every statement of the hot paths, explained against a seeded PostgreSQL database: none may read a
// table that grows with use by a sequential scan, so a missing index fails here when it is
// introduced, not in production at a hundred times the data. The statements are the ones the
// service really runs (seen through the test app's query hook, with their parameters), for
// requests as a user with a token and with a password (Basic) and as the site administrator, on a
// tenth of bench/scale-seed.ts's SCALE_100X (1,000 organizations, 10,000 users, 100,000 feed rows,
// 10,000 attachments: enough that PostgreSQL reads a few rows through an index rather than the
// table). With NATS_URL the change events are on, so the outbox's statements are explained too.
// The caller is in 10 organizations: a user in dozens makes PostgreSQL read the 3,000 teams of this
// size whole rather than look up the dozens (at 100× it looks them up). The offset-paged lists are
// read a page deep too: their counts and deep pages read every row the caller may see (a count
// needs them all), through an index that holds those rows, not the whole table. No exemptions.
// PostgreSQL only: jest.config.js leaves test/plans/ out without DATABASE_URL.

const SHAPE = SCALE_10X;
// Every table of the service grows with use (the one list of them: src/db/unusable-database.ts).
const GROWING_TABLES = new Set<string>([...SERVICE_TABLES['code-hosting-api'], ...COMMON_TABLES]);

const natsUrl = process.env['NATS_URL'];
const events = natsUrl ? eventTestSettings(natsUrl, 'ch-query-plans') : undefined;

interface Recorded {
  sql: string;
  params: string;
  /** The request that ran it first. */
  request: string;
}
/** Each distinct statement and parameters the service ran while recording. */
const statements = new Map<string, Recorded>();
let request: string | undefined;

const service = useTestApp(async (source) => {
  const storage = await openTestStorage('disk');
  try {
    const instance = await createTestApp(source, {
      connect: {
        onQuery: (sql, _durationMs, paramsJson) => {
          const params = paramsJson();
          const key = `${sql}\n${params}`;
          if (request !== undefined && !statements.has(key)) statements.set(key, { sql, params, request });
        },
      },
      storage: storage.storage,
      events,
    });
    return {
      app: instance.app,
      close: async () => {
        await instance.close();
        await storage.close();
      },
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
});

afterAll(async () => {
  if (natsUrl && events) await deleteStream(natsUrl, events.stream.name);
});

/** A connection of the test's own to the app's database, closed before the database is dropped. */
async function connect(): Promise<Client> {
  const source = service.database;
  if (source.kind !== 'postgres') throw new Error('query plans are checked on PostgreSQL (DATABASE_URL)');
  const client = new Client({ connectionString: source.url });
  await client.connect();
  return client;
}

async function withDatabase<T>(task: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

beforeAll(
  () => withDatabase((client) => seedScale(client, SHAPE, { passwordOf: siteAdmin.username })),
  120_000,
);

/** The caller: a user with a token, who owns organization 1 and is in 9 more (one of them private). */
const caller = scaleUserName(SCALE_CALLER);
const callerToken = `token ${scaleTokenSecret(SCALE_CALLER)}`;
/** Every seeded user's password is the administrator's (seedScale's passwordOf). */
const callerBasic = basic(caller, siteAdmin.password);
const org = scaleOrgName(1);
const repo = scaleRepositoryName(1, 1);
/** A private organization the caller is a member of, and one it is not. */
const callerOrgs = scaleCallerOrganizations(SHAPE);
const privateMemberOrg = scaleOrgName(callerOrgs.find((o) => scaleOrgVisibility(o) === 'private')!);
const privateOtherOrg = scaleOrgName(
  Array.from({ length: SHAPE.organizations }, (_, o) => o + 1).find(
    (o) => scaleOrgVisibility(o) === 'private' && !callerOrgs.includes(o),
  )!,
);

describe('the hot paths on a seeded database', () => {
  it('read no growing table by a sequential scan', async () => {
    const admin = `token ${await createToken(service, siteAdmin, ['all'])}`;
    const other = scaleUserName(4321);
    const { feedDate, teamId, issueIndex } = await withDatabase(async (client) => {
      const { rows } = await client.query<{ day: string; team: string; issue: string }>(
        `SELECT (SELECT to_char(max(a.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM actions a
                   JOIN repositories r ON r.id = a.repo_id JOIN accounts o ON o.id = r.owner_id
                 WHERE o.lower_name = lower($1)) AS day,
                (SELECT t.id::text FROM teams t JOIN accounts o ON o.id = t.org_id
                 WHERE o.lower_name = lower($1) AND t.lower_name = 'developers') AS team,
                (SELECT min(i.index)::text FROM issues i JOIN attachments x ON x.issue_id = i.id
                   JOIN repositories r ON r.id = i.repo_id JOIN accounts o ON o.id = r.owner_id
                 WHERE o.lower_name = lower($1) AND r.lower_name = $2) AS issue`,
        [org, repo],
      );
      return { feedDate: rows[0]!.day, teamId: rows[0]!.team, issueIndex: rows[0]!.issue };
    });
    expect([feedDate, teamId, issueIndex].every(Boolean)).toBe(true);
    const assets = `${api}/repos/${org}/${repo}/issues/${issueIndex}/assets`;
    const callers: [string, string][] = [
      ['user (token)', callerToken],
      ['admin (token)', admin],
    ];
    const get = async (label: string, path: string, authorization: string | undefined, status = 200) => {
      request = `GET ${path} as ${label}`;
      const pending = service.request.get(path);
      const response = await (authorization ? pending.set('Authorization', authorization) : pending).expect(
        status,
      );
      request = undefined;
      return response;
    };
    const send = async (
      method: 'post' | 'patch' | 'put' | 'delete',
      path: string,
      authorization: string,
      status: number,
      body?: object,
    ) => {
      request = `${method.toUpperCase()} ${path}`;
      const pending = service.request[method](path).set('Authorization', authorization);
      const response = await (body ? pending.send(body) : pending).expect(status);
      request = undefined;
      return response;
    };

    // Reads, as the user (token and password) and as the administrator.
    for (const [label, authorization] of [...callers, ['user (Basic)', callerBasic] as [string, string]]) {
      await get(label, `${api}/user`, authorization);
      await get(label, `${api}/orgs/${org}`, authorization);
      await get(label, `${api}/orgs/${privateMemberOrg}`, authorization);
      await get(label, `${api}/users/${other}`, authorization);
    }
    await get('admin (Basic)', `${api}/orgs/${privateOtherOrg}`, adminAuthorization);
    await get('user (token)', `${api}/orgs/${privateOtherOrg}`, callerToken, 404);
    for (const [label, authorization] of callers) {
      await get(label, `${api}/users/${caller}/orgs/${org}/permissions`, authorization);
      await get(label, `${api}/users/${other}/orgs/${privateMemberOrg}/permissions`, authorization);
      await get(label, `${api}/users/${other}/orgs`, authorization);
      await get(label, `${api}/orgs?page=1&limit=50`, authorization);
      await get(label, `${api}/orgs?page=18&limit=50`, authorization);
      await get(label, `${api}/users/${caller}/orgs?page=2&limit=4`, authorization);
      await get(label, `${api}/orgs/${org}/teams`, authorization);
      await get(label, `${api}/repos/${org}/${repo}`, authorization);
      await get(label, `${api}/repos/${org}/${repo}/issues?state=all`, authorization);
      await get(label, `${api}/repos/${org}/${repo}/issues/${issueIndex}`, authorization);
      await get(label, `${api}/orgs/${org}/activities/feeds?date=${feedDate}`, authorization);
      await get(label, `${api}/orgs/${org}/activities/feeds?page=3&limit=20`, authorization);
      await get(label, assets, authorization);
    }
    await get('admin (token)', `${api}/admin/orgs?page=18&limit=50`, admin);
    await get('anonymous', `${api}/orgs?page=15&limit=50`, undefined);
    await get('anonymous', `${api}/orgs/${org}/activities/feeds?date=${feedDate}`, undefined);
    await get('user (token)', `${api}/user/orgs`, callerToken);
    await get('user (token)', `${api}/user/orgs?page=3&limit=4`, callerToken);
    const { body: listed } = await get('user (token)', assets, callerToken);
    await get('user (token)', `${assets}/${listed[0].id}`, callerToken);

    // Writes: an organization created, edited, given a team and a member, renamed and deleted; a
    // repository and an issue created; an attachment uploaded, downloaded and deleted; a token.
    const created = `plans-${Date.now()}`;
    await send('post', `${api}/orgs`, callerToken, 201, { username: created, visibility: 'limited' });
    await send('patch', `${api}/orgs/${created}`, callerToken, 200, { description: 'edited' });
    const team = await send('post', `${api}/orgs/${created}/teams`, callerToken, 201, {
      name: 'Reviewers',
      permission: 'write',
    });
    await send('put', `${api}/teams/${team.body.id}/members/${other}`, callerToken, 204);
    await send('delete', `${api}/teams/${team.body.id}/members/${other}`, callerToken, 204);
    await send('post', `${api}/orgs/${created}/rename`, callerToken, 204, { new_name: `${created}-renamed` });
    await send('delete', `${api}/orgs/${created}-renamed`, callerToken, 204);
    await send('patch', `${api}/orgs/${org}`, callerToken, 200, { website: 'https://example.org/' });
    await send('put', `${api}/teams/${teamId}/members/${other}`, callerToken, 204);
    await send('post', `${api}/orgs/${org}/repos`, callerToken, 201, { name: 'plans-repo' });
    await send('post', `${api}/repos/${org}/${repo}/issues`, callerToken, 201, { title: 'A new issue' });
    request = `POST ${assets}`;
    const uploaded = await service.request
      .post(assets)
      .set('Authorization', callerToken)
      .attach('attachment', Buffer.from('a crash log\n'), { filename: 'crash.log' })
      .expect(201);
    request = undefined;
    await get('user (token)', new URL(uploaded.body.browser_download_url).pathname, callerToken);
    await send('patch', `${assets}/${uploaded.body.id}`, callerToken, 201, { name: 'renamed.log' });
    await send('delete', `${assets}/${uploaded.body.id}`, callerToken, 204);
    await send('post', `${api}/users/${caller}/tokens`, callerBasic, 201, { name: 'plans', scopes: ['all'] });
    // A wrong password: the failed-login counters.
    request = `GET ${api}/user with a wrong password`;
    await service.request.get(`${api}/user`).set('Authorization', basic(other, 'wrong')).expect(401);
    request = undefined;

    const { explained, scans } = await sequentialScans(
      service.database,
      [...statements.values()].map(({ sql, params, request: by }) => ({ sql, params, by })),
      GROWING_TABLES,
    );
    // The requests above ran statements of every kind (reads, lists, writes); each was explained.
    expect(explained).toBeGreaterThan(40);
    expect(scans).toEqual([]);
  }, 120_000);
});

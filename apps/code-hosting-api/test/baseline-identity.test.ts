/**
 * The bench's baseline (bench/baseline/handlers.ts) answers what the service answers, byte for
 * byte: the bench compares the two on the same requests, so a ratio only means something while
 * this holds. The baseline's SQL runs on this file's own database (PGlite or PostgreSQL).
 */
import { querySource } from '@repo/testing';
import { createBaseline } from '../bench/baseline/handlers';
import { adminToken, api, createOrg, createOrgRepo, createUser, type Actor } from './actors';
import { testRootUrl, useCodeHostingApi } from './app';
import { addToNewTeam } from './organization-fixtures';

const service = useCodeHostingApi();
let baseline: ReturnType<typeof createBaseline>;
let owner: Actor;
let member: Actor;
let outsider: Actor;
let admin: string;
const orgs: Record<'open' | 'limited' | 'closed', string> = { open: '', limited: '', closed: '' };

beforeAll(async () => {
  baseline = createBaseline({
    query: (sql, parameters) => querySource(service.database, sql, parameters),
    rootUrl: testRootUrl,
  });
  owner = await createUser(service, 'owner');
  member = await createUser(service, 'member');
  outsider = await createUser(service, 'outsider');
  admin = await adminToken(service);
  orgs.open = (await createOrg(service, owner, { full_name: 'Open Org', email: 'open@example.org' })).name;
  orgs.limited = (await createOrg(service, owner, { visibility: 'limited', description: 'limited ✓' })).name;
  orgs.closed = (await createOrg(service, owner, { visibility: 'private' })).name;
  await addToNewTeam(service, owner.token, orgs.closed, member.username, {
    permission: 'write',
    includes_all_repositories: true,
  });
  await addToNewTeam(service, owner.token, orgs.open, member.username, { permission: 'read' });
  for (const org of [orgs.open, orgs.closed]) {
    await createOrgRepo(service, owner.token, org);
    await createOrgRepo(service, owner.token, org, { private: true });
  }
});

async function answers(path: string, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `token ${token}` } : {};
  const response = await fetch(`${service.baseUrl}${path}`, { headers });
  const expected = { status: response.status, body: await response.text() };
  const answer = await baseline({ method: 'GET', url: path, headers, body: Buffer.alloc(0) });
  return { expected, actual: { status: answer.status, body: answer.body } };
}

describe('the bench baseline answers as the service does', () => {
  const callers = () => ({
    owner: owner.token,
    member: member.token,
    outsider: outsider.token,
    admin,
    anonymous: undefined,
  });

  it.each(['owner', 'member', 'outsider', 'admin', 'anonymous'] as const)(
    'GET /orgs/{org} and GET /orgs as %s',
    async (who) => {
      const token = callers()[who];
      for (const org of Object.values(orgs)) {
        const { expected, actual } = await answers(`${api}/orgs/${org}`, token);
        expect(actual).toEqual(expected);
      }
      for (const query of ['', '?limit=2', '?limit=2&page=2', '?limit=50']) {
        const { expected, actual } = await answers(`${api}/orgs${query}`, token);
        expect(actual).toEqual(expected);
      }
    },
  );

  it.each(['owner', 'member', 'outsider', 'admin'] as const)(
    'GET /users/{u}/orgs and permissions as %s',
    async (who) => {
      const token = callers()[who];
      for (const user of [owner, member, outsider]) {
        const { expected, actual } = await answers(`${api}/users/${user.username}/orgs`, token);
        expect(actual).toEqual(expected);
        for (const org of Object.values(orgs)) {
          const permissions = await answers(`${api}/users/${user.username}/orgs/${org}/permissions`, token);
          expect(permissions.actual).toEqual(permissions.expected);
        }
      }
    },
  );

  it.each(['owner', 'member', 'outsider', 'admin', 'anonymous'] as const)(
    'the activity feed as %s',
    async (who) => {
      const token = callers()[who];
      for (const org of Object.values(orgs)) {
        for (const query of ['', '?limit=1&page=2']) {
          const { expected, actual } = await answers(`${api}/orgs/${org}/activities/feeds${query}`, token);
          expect(actual).toEqual(expected);
        }
      }
    },
  );

  it('refuses a bad token the same way', async () => {
    const { expected, actual } = await answers(`${api}/orgs/${orgs.open}`, 'f'.repeat(40));
    expect(actual).toEqual(expected);
  });

  it('answers 404 for an organization that does not exist the same way', async () => {
    const { expected, actual } = await answers(`${api}/orgs/no-such-org`, owner.token);
    expect(actual).toEqual(expected);
  });
});

import { useTestApp } from '@repo/testing';
import { createTestApp, testSettings } from './app';
import {
  addToTeam,
  adminAuthorization,
  adminToken,
  api,
  auth,
  basic,
  createOrg,
  createOrgRepo,
  createTeam,
  createUser,
  uniqueName,
  type Actor,
} from './actors';
import { issueFixture, uploaded } from './attachment-fixtures';
import { addToNewTeam } from './organization-fixtures';

// Lists answer in a fixed number of database round trips, however many entries a page holds:
// no query per listed entry (an N+1 loop shows as a count that grows with `limit`).

// The write of a token's last use is left out: it runs after the response, at most once a
// minute per token (test/token-use.test.ts), so a request may or may not be followed by it.
const tokenUseWrite = /^\s*UPDATE\b[^;]*"access_tokens"/i;

let queries = 0;
/** The statements' texts since `queries` was last set to 0. */
let statements: string[] = [];
// A login refusal lasts a minute here, not the default second: the case that meets one must not see
// it end first on a slow machine.
const settings = {
  ...testSettings,
  loginThrottle: { ...testSettings.loginThrottle, baseDelaySeconds: 60 },
};
const service = useTestApp((source) =>
  createTestApp(source, {
    settings,
    connect: {
      onQuery: (sql) => {
        if (tokenUseWrite.test(sql)) return;
        if (queries === 0) statements = [];
        queries += 1;
        statements.push(sql);
      },
    },
  }),
);

/** More entries than the largest page (API_MAX_RESPONSE_ITEMS is 50). */
const entries = 51;

/** The database statements one request runs, and its response. */
async function counted(path: string, token: string) {
  queries = 0;
  const response = await service.request
    .get(path)
    .set(...auth(token))
    .expect(200);
  return { count: queries, response };
}

describe('GET /orgs/{org}/activities/feeds', () => {
  let owner: Actor;
  let member: Actor;
  let org: string;
  const privateRepos: string[] = [];
  let collaborated: string;

  beforeAll(async () => {
    owner = await createUser(service, 'feed-owner');
    member = await createUser(service, 'feed-member');
    org = (await createOrg(service, owner)).name;
    await addToTeam(service, owner.token, await createTeam(service, owner.token, org), member.username);
    // Every repository is a distinct feed entry, half of them private.
    for (let index = 0; index < entries; index += 1) {
      const name = await createOrgRepo(service, owner.token, org, { private: index % 2 === 0 });
      if (index % 2 === 0) privateRepos.push(name);
    }
    collaborated = privateRepos[privateRepos.length - 1]!;
    await service.request
      .put(`${api}/repos/${org}/${collaborated}/collaborators/${member.username}`)
      .set(...auth(owner.token))
      .send({ permission: 'admin' })
      .expect(204);
  });

  it('runs as many queries for a page of 50 entries as for a page of 1', async () => {
    const one = await counted(`${api}/orgs/${org}/activities/feeds?limit=1`, member.token);
    const fifty = await counted(`${api}/orgs/${org}/activities/feeds?limit=50`, member.token);
    expect(one.response.body).toHaveLength(1);
    expect(fifty.response.body).toHaveLength(50);
    expect(fifty.response.headers['x-total-count']).toBe(String(entries));
    expect(fifty.count).toBe(one.count);
    expect(fifty.count).toBeLessThanOrEqual(12);
  });

  it("still shows each entry's repository with the caller's own permissions", async () => {
    const { response } = await counted(`${api}/orgs/${org}/activities/feeds?limit=50`, member.token);
    const permissionsOf = (repo: string) =>
      (response.body as { repo: { name: string; permissions: unknown } }[]).find(
        (entry) => entry.repo.name === repo,
      )?.repo.permissions;
    const publicRepo = (response.body as { repo: { name: string; private: boolean } }[]).find(
      (entry) => !entry.repo.private,
    )!.repo.name;
    expect(permissionsOf(collaborated)).toEqual({ admin: true, push: true, pull: true });
    expect(permissionsOf(publicRepo)).toEqual({ admin: false, push: false, pull: true });
    expect(permissionsOf(privateRepos[1]!)).toEqual({ admin: false, push: false, pull: false });
  });
});

describe('GET /users/{username}/orgs', () => {
  let user: Actor;
  let viewer: Actor;
  const shared: string[] = [];

  beforeAll(async () => {
    user = await createUser(service, 'orgs-user');
    viewer = await createUser(service, 'orgs-viewer');
    // Private organizations: whether the viewer sees each depends on the viewer's membership.
    for (let index = 0; index < entries; index += 1) {
      const { name } = await createOrg(service, user, {
        username: uniqueName('private-org'),
        visibility: 'private',
      });
      if (index % 10 === 0) {
        await addToTeam(service, user.token, await createTeam(service, user.token, name), viewer.username);
        shared.push(name);
      }
    }
    await createOrg(service, user, { username: uniqueName('public-org') });
  });

  it('runs as many queries for a page of 50 organizations as for a page of 1', async () => {
    const one = await counted(`${api}/users/${user.username}/orgs?limit=1`, user.token);
    const fifty = await counted(`${api}/users/${user.username}/orgs?limit=50`, user.token);
    expect(one.response.body).toHaveLength(1);
    expect(fifty.response.body).toHaveLength(50);
    expect(fifty.response.headers['x-total-count']).toBe(String(entries + 1));
    expect(fifty.count).toBe(one.count);
    expect(fifty.count).toBeLessThanOrEqual(6);
  });

  it("filters another user's private organizations in the query, as many queries for any page size", async () => {
    const one = await counted(`${api}/users/${user.username}/orgs?limit=1`, viewer.token);
    const fifty = await counted(`${api}/users/${user.username}/orgs?limit=50`, viewer.token);
    const names = (fifty.response.body as { name: string }[]).map((org) => org.name);
    expect(names.filter((name) => name.startsWith('private-org'))).toEqual([...shared].sort());
    expect(fifty.response.headers['x-total-count']).toBe(String(shared.length + 1));
    expect(one.response.headers['x-total-count']).toBe(String(shared.length + 1));
    expect(fifty.count).toBe(one.count);
    expect(fifty.count).toBeLessThanOrEqual(6);
  });
});

describe('a token-authenticated request', () => {
  it('GET /orgs/{org}: the token, then the organization', async () => {
    const owner = await createUser(service, 'count-owner');
    const org = (await createOrg(service, owner)).name;
    const { count, response } = await counted(`${api}/orgs/${org}`, owner.token);
    expect(response.body).toMatchObject({ name: org });
    expect(count).toBe(2);
    // Named statements, prepared once per connection on PostgreSQL (src/db/prepared-statements.ts).
    expect(statements.map((sql) => /^\/\* prepared: (\w+) \*\//.exec(sql)?.[1])).toEqual([
      'token_by_hash',
      'account_by_name',
    ]);
  });

  it('finds the token and its account in one statement where the operation does not: under Sudo', async () => {
    const owner = await createUser(service, 'count-sudo');
    const org = (await createOrg(service, owner)).name;
    const admin = await adminToken(service);
    queries = 0;
    const response = await service.request
      .get(`${api}/orgs/${org}`)
      .set(...auth(admin))
      .set('Sudo', owner.username)
      .expect(200);
    expect(response.body).toMatchObject({ name: org });
    // The token, the Sudo target, then the organization: all named.
    expect(statements.map((sql) => /^\/\* prepared: (\w+) \*\//.exec(sql)?.[1] ?? sql)).toEqual([
      'token_by_hash',
      'account_by_name',
      'account_by_name',
    ]);
  });

  it('GET /users/{user}/orgs/{org}/permissions: the token, the user, the organization, the teams', async () => {
    const owner = await createUser(service, 'count-perm-owner');
    const org = (await createOrg(service, owner)).name;
    const { response } = await counted(`${api}/users/${owner.username}/orgs/${org}/permissions`, owner.token);
    expect(response.body).toMatchObject({ is_owner: true });
    // The token, the user and the organization by name, the user's teams there: each named.
    expect(statements.map((sql) => /^\/\* prepared: (\w+) \*\//.exec(sql)?.[1] ?? sql)).toEqual([
      'token_by_hash',
      'account_by_name',
      'account_by_name',
      'teams_of_member',
    ]);
  });

  it('refuses a token that matches no row, after that one statement', async () => {
    queries = 0;
    await service.request
      .get(`${api}/user`)
      .set(...auth('0123456789abcdef0123456789abcdef01234567'))
      .expect(401);
    expect(queries).toBe(1);
  });
});

describe('an organization write', () => {
  const names = () => statements.map((sql) => /^\/\* prepared: (\w+) \*\//.exec(sql)?.[1] ?? sql);

  it('POST /orgs: the token, then the organization, its Owners team and the creator in one statement', async () => {
    const creator = await createUser(service, 'count-creator');
    queries = 0;
    const name = uniqueName('count-made');
    await service.request
      .post(`${api}/orgs`)
      .set(...auth(creator.token))
      .send({ username: name, full_name: 'Counted' })
      .expect(201);
    expect(names()).toEqual(['token_by_hash', 'organization_create']);
    // The creator owns it: the Owners team and its member were written by that one statement.
    await service.request
      .get(`${api}/users/${creator.username}/orgs/${name}/permissions`)
      .set(...auth(creator.token))
      .expect(200)
      .expect((response) => expect(response.body).toMatchObject({ is_owner: true }));
  });

  it("PATCH /orgs/{org}: the token, the organization, the caller's teams there, then the write", async () => {
    const owner = await createUser(service, 'count-editor');
    const org = (await createOrg(service, owner)).name;
    queries = 0;
    await service.request
      .patch(`${api}/orgs/${org}`)
      .set(...auth(owner.token))
      .send({ description: 'counted', location: 'Here' })
      .expect(200)
      .expect((response) =>
        expect(response.body).toMatchObject({ description: 'counted', location: 'Here' }),
      );
    // Who may edit is decided once, by the domain, on what the two reads fetched.
    expect(names()).toEqual(['token_by_hash', 'account_by_name', 'teams_of_member', 'organization_edit']);
  });

  it('PATCH /orgs/{org} refused: the same reads, then 403 without a write', async () => {
    const owner = await createUser(service, 'count-owner');
    const org = (await createOrg(service, owner)).name;
    const member = await createUser(service, 'count-member');
    await addToNewTeam(service, owner.token, org, member.username, { permission: 'admin' });
    queries = 0;
    await service.request
      .patch(`${api}/orgs/${org}`)
      .set(...auth(member.token))
      .send({ description: 'not counted' })
      .expect(403);
    expect(names()).toEqual(['token_by_hash', 'account_by_name', 'teams_of_member']);
    await service.request
      .get(`${api}/orgs/${org}`)
      .set(...auth(owner.token))
      .expect(200)
      .expect((response) => expect(response.body).toMatchObject({ description: '' }));
  });
});

describe('an attachment rename', () => {
  const names = () => statements.map((sql) => /^\/\* prepared: (\w+) \*\//.exec(sql)?.[1] ?? sql);

  it("PATCH …/assets/{id}: the token, the repository, the caller's teams, the issue, then the write", async () => {
    const fixture = await issueFixture(service);
    const attachment = await uploaded(service, fixture.assets, fixture.owner.token);
    queries = 0;
    await service.request
      .patch(`${fixture.assets}/${attachment.id}`)
      .set(...auth(fixture.owner.token))
      .send({ name: 'renamed.txt' })
      .expect(201)
      .expect((response) => expect(response.body).toMatchObject({ id: attachment.id, name: 'renamed.txt' }));
    // The issue is read with its attachments: the attachment needs no statement of its own.
    expect(names()).toEqual([
      'token_by_hash',
      'repository_by_name',
      'teams_of_member',
      'issue_by_index',
      'attachment_rename',
    ]);
  });

  it('PATCH …/assets/{id} refused: the same reads (and the collaboration), then 403 without a write', async () => {
    const fixture = await issueFixture(service);
    const attachment = await uploaded(service, fixture.assets, fixture.owner.token);
    const stranger = await createUser(service, 'count-stranger');
    queries = 0;
    await service.request
      .patch(`${fixture.assets}/${attachment.id}`)
      .set(...auth(stranger.token))
      .send({ name: 'not-mine.txt' })
      .expect(403);
    expect(names()).toEqual([
      'token_by_hash',
      'repository_by_name',
      'teams_of_member',
      'collaborator_level',
      'issue_by_index',
    ]);
    await service.request
      .get(`${fixture.assets}/${attachment.id}`)
      .set(...auth(fixture.owner.token))
      .expect(200)
      .expect((response) => expect(response.body).toMatchObject({ name: attachment.name }));
  });
});

describe('a password (Basic) login', () => {
  // The failed-login backoff's state is in the database (src/domain/login-throttle.ts): one
  // statement reads the counters and counts ahead before the password is checked, one clears and
  // trusts after a success. With the counters in memory, every success was 2 statements (the
  // account, its last login), every failure 1 and a refusal none.
  async function login(username: string, password: string, status: number): Promise<number> {
    queries = 0;
    await service.request.get(`${api}/user`).set('Authorization', basic(username, password)).expect(status);
    return queries;
  }

  /** A user that never logged in (created by the site administrator, no token of its own). */
  async function newUser(): Promise<{ username: string; password: string }> {
    const username = uniqueName('basic-login');
    const password = `${username}-password`;
    await service.request
      .post(`${api}/admin/users`)
      .set('Authorization', adminAuthorization)
      .send({ username, email: `${username}@example.com`, password })
      .expect(201);
    return { username, password };
  }

  it('is four statements the first time from an address, three from then on', async () => {
    const user = await newUser();
    const other = await newUser();
    // Read and count ahead; the account; its last login; take the count back, clear and trust.
    expect(await login(user.username, user.password, 200)).toBe(4);
    // Trusted: nothing counted ahead, and nothing to clear (its trust renewed under a minute ago).
    expect(await login(user.username, user.password, 200)).toBe(3);
    // A trusted pair's failure is counted after the check; an untrusted one's, ahead of it.
    expect(await login(user.username, 'wrong-password', 401)).toBe(3);
    expect(await login(uniqueName('nobody'), 'wrong-password', 401)).toBe(2);
    // The address has failures now: the next success clears them.
    expect(await login(other.username, other.password, 200)).toBe(4);
  });

  it('refuses past the pair limit after the one statement that reads the counters', async () => {
    const guessed = uniqueName('nobody');
    const limit = testSettings.loginThrottle.pairFailures;
    for (let i = 1; i < limit; i += 1) expect(await login(guessed, 'wrong-password', 401)).toBe(2);
    // The failure whose count ahead reached the limit confirms the refusal it started.
    expect(await login(guessed, 'wrong-password', 401)).toBe(3);
    expect(await login(guessed, 'wrong-password', 429)).toBe(1);
  });
});

import { useCodeHostingApi } from './app';
import { adminAuthorization, api, auth, basic, createOrg, createOrgRepo, createUser } from './actors';
import { createIssue, uploaded } from './attachment-fixtures';

// As Gitea's route middleware: who may act is decided before the body is read. A caller who may
// not act gets 401/403 whatever the body, never a 422 (or 415) that tells them about its shape.

const service = useCodeHostingApi();

interface Setting {
  owner: { token: string; username: string };
  outsider: { token: string; username: string; password: string };
  org: string;
  repo: string;
  index: number;
}

let setting: Setting;

beforeAll(async () => {
  const owner = await createUser(service, 'order-owner');
  const outsider = await createUser(service, 'order-outsider');
  // The outsider may not create organizations.
  await service.request
    .patch(`${api}/admin/users/${outsider.username}`)
    .set('Authorization', adminAuthorization)
    .send({ allow_create_organization: false })
    .expect(200);
  const org = (await createOrg(service, owner)).name;
  const repo = await createOrgRepo(service, owner.token, org);
  const index = await createIssue(service, owner.token, org, repo);
  setting = { owner, outsider, org, repo, index };
});

/** Write operations with a body that is invalid for them. */
const operations: [string, string, (s: Setting) => string, Record<string, unknown>][] = [
  ['POST', 'create an organization', () => '/orgs', { username: '', visibility: 'nope' }],
  ['PATCH', 'edit an organization', (s) => `/orgs/${s.org}`, { visibility: 'nope', website: 'ftp://x' }],
  ['POST', 'rename an organization', (s) => `/orgs/${s.org}/rename`, { new_name: 42 }],
  ['POST', 'create a team', (s) => `/orgs/${s.org}/teams`, { name: '', permission: 'god' }],
  ['POST', 'create an organization repository', (s) => `/orgs/${s.org}/repos`, { name: '' }],
  ['POST', 'create one on the legacy path', (s) => `/org/${s.org}/repos`, { name: '' }],
  ['PATCH', 'edit a repository', (s) => `/repos/${s.org}/${s.repo}`, { private: 'yes' }],
  [
    'PUT',
    'add a collaborator',
    (s) => `/repos/${s.org}/${s.repo}/collaborators/${s.owner.username}`,
    { permission: 'god' },
  ],
  ['PATCH', 'edit an issue', (s) => `/repos/${s.org}/${s.repo}/issues/${s.index}`, { state: 'gone' }],
  ['POST', 'create a user', () => '/admin/users', { username: '' }],
  ['PATCH', 'edit a user', (s) => `/admin/users/${s.owner.username}`, { admin: 'yes' }],
];

/** Operations where any signed-in reader may act: only the anonymous caller is refused first. */
const openToReaders: [string, string, (s: Setting) => string, Record<string, unknown>][] = [
  ['POST', 'create a user repository', () => '/user/repos', { name: '' }],
  ['POST', 'create an issue', (s) => `/repos/${s.org}/${s.repo}/issues`, { title: '' }],
  ['POST', 'open a pull request', (s) => `/repos/${s.org}/${s.repo}/pulls`, { title: '' }],
];

function send(method: string, path: string) {
  return service.request[method.toLowerCase() as 'post' | 'patch' | 'put'](`${api}${path}`);
}

describe('authorization before body validation', () => {
  it.each([...operations, ...openToReaders])(
    'anonymous: %s (%s) with an invalid body answers 401',
    async (method, _name, path, body) => {
      const response = await send(method, path(setting)).send(body);
      expect(response.status).toBe(401);
    },
  );

  it.each(operations)(
    'a caller who may not act: %s (%s) with an invalid body answers 403',
    async (method, _name, path, body) => {
      const response = await send(method, path(setting))
        .set(...auth(setting.outsider.token))
        .send(body);
      expect(response.status).toBe(403);
    },
  );

  it.each(operations)(
    'a caller who may not act: %s (%s) with a form body answers 403, not 415',
    async (method, _name, path) => {
      const response = await send(method, path(setting))
        .set(...auth(setting.outsider.token))
        .type('form')
        .send('a=b');
      expect(response.status).toBe(403);
    },
  );

  it('a malformed or oversized JSON body: 401 anonymous, 403 for a caller who may not act', async () => {
    const path = `${api}/orgs/${setting.org}`;
    for (const body of ['{"full_name":', JSON.stringify({ description: 'x'.repeat(2 * 1024 * 1024) })]) {
      await service.request.patch(path).type('json').send(body).expect(401);
      await service.request
        .patch(path)
        .set(...auth(setting.outsider.token))
        .type('json')
        .send(body)
        .expect(403);
    }
  });

  it("a token for another user's account: 403 whatever the body", async () => {
    const response = await service.request
      .post(`${api}/users/${setting.owner.username}/tokens`)
      .set('Authorization', basic(setting.outsider.username, setting.outsider.password))
      .send({ name: 42 });
    expect(response.status).toBe(403);
  });

  it('a value the database refuses (a NUL character): 403 for a caller who may not act, 422 for one who may', async () => {
    const assets = `${api}/repos/${setting.org}/${setting.repo}/issues/${setting.index}/assets`;
    const attachment = await uploaded(service, assets, setting.owner.token);
    const writes: [string, Record<string, unknown>][] = [
      [`${api}/orgs/${setting.org}`, { full_name: 'a\u0000b' }],
      [`${assets}/${attachment.id}`, { name: 'a\u0000b.txt' }],
    ];
    for (const [path, body] of writes) {
      await service.request
        .patch(path)
        .set(...auth(setting.outsider.token))
        .send(body)
        .expect(403);
      const response = await service.request
        .patch(path)
        .set(...auth(setting.owner.token))
        .send(body)
        .expect(422);
      expect(response.body.message).toMatch(/NUL/);
    }
  });

  it('the owner with the same invalid bodies still gets the validation error', async () => {
    const response = await send('PATCH', `/orgs/${setting.org}`)
      .set(...auth(setting.owner.token))
      .send({ visibility: 'nope' });
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/visibility/);
  });
});

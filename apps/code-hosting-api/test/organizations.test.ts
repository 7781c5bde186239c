import { testRootUrl, useCodeHostingApi } from './app';
import {
  addToTeam,
  adminAuthorization,
  adminToken,
  api,
  auth,
  createOrg,
  createOrgRepo,
  createTeam,
  createToken,
  createUser,
  uniqueName,
  type Actor,
} from './actors';

const service = useCodeHostingApi();

const errorBody = (message: string | RegExp) => ({
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  url: `${testRootUrl}api/swagger`,
});

async function ownerTeamId(token: string, org: string): Promise<number> {
  const response = await service.request
    .get(`${api}/orgs/${org}/teams`)
    .set(...auth(token))
    .expect(200);
  return (response.body as { id: number; name: string }[]).find((team) => team.name === 'Owners')!.id;
}

describe('POST /orgs (orgCreate)', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it('creates an active organization with every field and answers 201 with the Organization', async () => {
    const name = uniqueName('Acme');
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({
        username: name,
        full_name: 'Acme Corp',
        email: 'hello@acme.example',
        description: 'Anvils',
        website: 'https://acme.example',
        location: 'Desert',
        visibility: 'limited',
        repo_admin_change_team_access: true,
      })
      .expect(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      name,
      username: name,
      full_name: 'Acme Corp',
      email: 'hello@acme.example',
      avatar_url: expect.stringContaining(testRootUrl),
      description: 'Anvils',
      website: 'https://acme.example',
      location: 'Desert',
      visibility: 'limited',
      repo_admin_change_team_access: true,
    });
  });

  it('puts the creator into an Owners team with owner permission', async () => {
    const org = await createOrg(service, alice);
    const teams = await service.request
      .get(`${api}/orgs/${org.name}/teams`)
      .set(...auth(alice.token))
      .expect(200);
    expect(teams.body).toEqual([
      expect.objectContaining({ name: 'Owners', permission: 'owner', can_create_org_repo: true }),
    ]);
    const permissions = await service.request
      .get(`${api}/users/${alice.username}/orgs/${org.name}/permissions`)
      .set(...auth(alice.token))
      .expect(200);
    expect(permissions.body).toEqual({
      can_read: true,
      can_write: true,
      is_admin: true,
      is_owner: true,
      can_create_repository: true,
    });
  });

  it('rule 2: defaults the visibility to public when none is given', async () => {
    const name = uniqueName('org');
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ username: name })
      .expect(201);
    expect(response.body.visibility).toBe('public');
  });

  it('rule 2: defaults the visibility to public when it is empty', async () => {
    const name = uniqueName('org');
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ username: name, visibility: '' })
      .expect(201);
    expect(response.body.visibility).toBe('public');
  });

  it('rule 2: answers 403 when the user may not create organizations', async () => {
    const bob = await createUser(service, 'bob');
    await service.request
      .patch(`${api}/admin/users/${bob.username}`)
      .set('Authorization', adminAuthorization)
      .send({ allow_create_organization: false })
      .expect(200);
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(bob.token))
      .send({ username: uniqueName('org') })
      .expect(403);
    expect(response.body).toEqual(errorBody(/not allowed to create organizations/));
  });

  it('rule 2: lets a site administrator create organizations even when their account disallows it', async () => {
    const token = await adminToken(service);
    await service.request
      .post(`${api}/orgs`)
      .set(...auth(token))
      .send({ username: uniqueName('admin-org') })
      .expect(201);
  });

  it('rule 2: answers 422 when an organization already has the name, compared case-insensitively', async () => {
    const org = await createOrg(service, alice);
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ username: org.name.toUpperCase() })
      .expect(422);
    expect(response.body).toEqual(errorBody(/user already exists/));
  });

  it('rule 2: of two concurrent creations of one name, one answers 201 and the other 422', async () => {
    const name = uniqueName('race');
    const statuses = await Promise.all(
      [name, name.toUpperCase()].map((username) =>
        service.request
          .post(`${api}/orgs`)
          .set(...auth(alice.token))
          .send({ username })
          .then((response) => response.status),
      ),
    );
    expect(statuses.sort()).toEqual([201, 422]);
  });

  it('rule 2: answers 422 when a user already has the name (users and organizations share names)', async () => {
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ username: alice.username.toUpperCase() })
      .expect(422);
    expect(response.body).toEqual(errorBody(/user already exists/));
  });

  it.each(['api', 'admin', 'assets', 'explore', 'ghost', 'swagger.v1.json', '.well-known', 'Login', 'user'])(
    'rule 2: answers 422 for the reserved name %s',
    async (name) => {
      const response = await service.request
        .post(`${api}/orgs`)
        .set(...auth(alice.token))
        .send({ username: name })
        .expect(422);
      expect(response.body).toEqual(errorBody(/name is reserved/));
    },
  );

  it.each(['team.keys', 'team.gpg', 'news.rss', 'news.atom', 'logo.png', 'LOGO.PNG'])(
    'rule 2: answers 422 for the reserved pattern of %s',
    async (name) => {
      const response = await service.request
        .post(`${api}/orgs`)
        .set(...auth(alice.token))
        .send({ username: name })
        .expect(422);
      expect(response.body).toEqual(errorBody(/name pattern is not allowed/));
    },
  );

  it.each([
    '-leading',
    '_leading',
    'has space',
    'dots..twice',
    'dash-_mix',
    'trailing-',
    'trailing.',
    'ünicode',
    'slash/name',
  ])('rule 2: answers 422 when the name %s contains forbidden characters or sequences', async (name) => {
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ username: name })
      .expect(422);
    expect(response.body).toEqual(errorBody(/name is invalid/));
  });

  it('rule 2: answers 422 for a name longer than 40 characters', async () => {
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ username: 'a'.repeat(41) })
      .expect(422);
    expect(response.body).toEqual(errorBody(/too long/));
  });

  it('accepts a name of exactly 40 characters with dots, dashes and underscores', async () => {
    const name = `a.b-c_d${'e'.repeat(33)}`;
    await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ username: name })
      .expect(201);
  });

  it('answers 422 naming the field when the username is missing', async () => {
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ full_name: 'x' })
      .expect(422);
    expect(response.body.message).toMatch(/username/);
  });

  it('answers 422 for an invalid email or visibility', async () => {
    await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ username: uniqueName('org'), email: 'not-an-email' })
      .expect(422);
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .send({ username: uniqueName('org'), visibility: 'secret' })
      .expect(422);
    expect(response.body.message).toMatch(/visibility/);
  });

  it('answers 401 "token is required" for an anonymous caller', async () => {
    const response = await service.request
      .post(`${api}/orgs`)
      .send({ username: uniqueName('org') })
      .expect(401);
    expect(response.body).toEqual(errorBody('token is required'));
  });
});

describe('GET /orgs/{org} (orgGet)', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it('answers 200 with the organization', async () => {
    const org = await createOrg(service, alice, { full_name: 'Full', email: 'org@example.com' });
    const response = await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(response.body).toMatchObject({
      id: org.id,
      name: org.name,
      full_name: 'Full',
      email: 'org@example.com',
    });
  });

  it('finds the organization by its name in any letter case', async () => {
    const org = await createOrg(service, alice);
    const response = await service.request.get(`${api}/orgs/${org.name.toUpperCase()}`).expect(200);
    expect(response.body.id).toBe(org.id);
  });

  it('empties the email for an anonymous reader', async () => {
    const org = await createOrg(service, alice, { email: 'hidden@example.com' });
    const response = await service.request.get(`${api}/orgs/${org.name}`).expect(200);
    expect(response.body.email).toBe('');
    const signedIn = await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(signedIn.body.email).toBe('hidden@example.com');
  });

  it('answers 404 for an unknown organization', async () => {
    const response = await service.request.get(`${api}/orgs/no-such-org`).expect(404);
    expect(response.body.url).toBe(`${testRootUrl}api/swagger`);
  });

  it('answers 404 for a user name (users are not organizations)', async () => {
    await service.request
      .get(`${api}/orgs/${alice.username}`)
      .set(...auth(alice.token))
      .expect(404);
  });

  it('rule 3: answers 404 when the organization is not visible to the requester', async () => {
    const org = await createOrg(service, alice, { visibility: 'private' });
    const stranger = await createUser(service, 'stranger');
    await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(stranger.token))
      .expect(404);
  });
});

describe('PATCH /orgs/{org} (orgEdit)', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it('rule 6: changes only the fields supplied', async () => {
    const org = await createOrg(service, alice, {
      full_name: 'Before',
      email: 'before@example.com',
      description: 'desc',
      website: 'https://before.example',
      location: 'Here',
    });
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({ full_name: 'After' })
      .expect(200);
    expect(response.body).toMatchObject({
      full_name: 'After',
      email: 'before@example.com',
      description: 'desc',
      website: 'https://before.example',
      location: 'Here',
      visibility: 'public',
      repo_admin_change_team_access: false,
    });
    const reread = await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(reread.body).toEqual(response.body);
  });

  it('edits every field, and an empty email clears it', async () => {
    const org = await createOrg(service, alice, { email: 'old@example.com' });
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({
        description: 'd',
        website: '',
        location: 'l',
        repo_admin_change_team_access: true,
        visibility: 'limited',
        email: '',
      })
      .expect(200);
    expect(response.body).toMatchObject({
      description: 'd',
      website: '',
      location: 'l',
      repo_admin_change_team_access: true,
      visibility: 'limited',
      email: '',
    });
  });

  it('rule 6: answers 422 for an invalid email and changes nothing', async () => {
    const org = await createOrg(service, alice, { email: 'kept@example.com', description: 'kept' });
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({ email: 'broken@', description: 'changed' })
      .expect(422);
    expect(response.body).toEqual(errorBody(/email/));
    const reread = await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(reread.body).toMatchObject({ email: 'kept@example.com', description: 'kept' });
  });

  it('answers 422 for a website that is not an http(s) URL', async () => {
    const org = await createOrg(service, alice);
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({ website: 'ftp://x' })
      .expect(422);
    expect(response.body.message).toMatch(/website/);
  });

  it('answers 403 for a member who is not an owner', async () => {
    const org = await createOrg(service, alice);
    const member = await createUser(service, 'member');
    await addToTeam(
      service,
      alice.token,
      await createTeam(service, alice.token, org.name, { permission: 'admin' }),
      member.username,
    );
    await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(member.token))
      .send({ full_name: 'x' })
      .expect(403);
  });

  it('lets a site administrator edit any organization', async () => {
    const org = await createOrg(service, alice);
    await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set('Authorization', adminAuthorization)
      .send({ full_name: 'By admin' })
      .expect(200);
  });

  it('answers 404 for an unknown organization', async () => {
    await service.request
      .patch(`${api}/orgs/no-such-org`)
      .set(...auth(alice.token))
      .send({ full_name: 'x' })
      .expect(404);
  });

  it('answers 401 for an anonymous caller', async () => {
    const org = await createOrg(service, alice);
    await service.request.patch(`${api}/orgs/${org.name}`).send({ full_name: 'x' }).expect(401);
  });

  it('rule 4: lets an owner change the visibility when the danger zone is not restricted', async () => {
    const org = await createOrg(service, alice);
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({ visibility: 'private' })
      .expect(200);
    expect(response.body.visibility).toBe('private');
  });
});

describe('POST /orgs/{org}/rename (renameOrg)', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it('renames: 204, the old name stops resolving, the id, members, repositories and feed stay', async () => {
    const org = await createOrg(service, alice);
    const member = await createUser(service, 'member');
    const teamId = await createTeam(service, alice.token, org.name, { permission: 'write' });
    await addToTeam(service, alice.token, teamId, member.username);
    const repo = await createOrgRepo(service, alice.token, org.name);
    const newName = uniqueName('renamed');

    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: newName })
      .expect(204, '');

    await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(404);
    const renamed = await service.request
      .get(`${api}/orgs/${newName}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(renamed.body).toMatchObject({ id: org.id, name: newName, username: newName });
    const permissions = await service.request
      .get(`${api}/users/${member.username}/orgs/${newName}/permissions`)
      .set(...auth(member.token))
      .expect(200);
    expect(permissions.body).toMatchObject({ can_write: true, is_admin: false });
    const repository = await service.request
      .get(`${api}/repos/${newName}/${repo}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(repository.body.full_name).toBe(`${newName}/${repo}`);
    const feed = await service.request
      .get(`${api}/orgs/${newName}/activities/feeds`)
      .set(...auth(alice.token))
      .expect(200);
    expect(feed.body.map((entry: { op_type: string }) => entry.op_type)).toContain('create_repo');
  });

  it('allows changing only the letter case of the name', async () => {
    const org = await createOrg(service, alice);
    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: org.name.toUpperCase() })
      .expect(204);
    const response = await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(response.body.name).toBe(org.name.toUpperCase());
  });

  it('rule 5: answers 422 when the new name is taken by another organization or user', async () => {
    const org = await createOrg(service, alice);
    const other = await createOrg(service, alice);
    const taken = await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: other.name.toUpperCase() })
      .expect(422);
    expect(taken.body).toEqual(errorBody(/user already exists/));
    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: alice.username })
      .expect(422);
  });

  it.each([
    ['a reserved name', 'explore', /name is reserved/],
    ['a reserved pattern', 'org.keys', /name pattern is not allowed/],
    ['forbidden characters', 'bad name', /name is invalid/],
    ['a forbidden sequence', 'bad--name', /name is invalid/],
  ])('rule 5: answers 422 for %s', async (_rule, newName, message) => {
    const org = await createOrg(service, alice);
    const response = await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: newName })
      .expect(422);
    expect(response.body).toEqual(errorBody(message));
    await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
  });

  it('answers 422 when new_name is missing', async () => {
    const org = await createOrg(service, alice);
    const response = await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({})
      .expect(422);
    expect(response.body.message).toMatch(/new_name/);
  });

  it('answers 403 for a member who is not an owner', async () => {
    const org = await createOrg(service, alice);
    const member = await createUser(service, 'member');
    await addToTeam(service, alice.token, await createTeam(service, alice.token, org.name), member.username);
    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(member.token))
      .send({ new_name: uniqueName('x') })
      .expect(403);
  });

  it('answers 401 for an anonymous caller', async () => {
    const org = await createOrg(service, alice);
    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .send({ new_name: uniqueName('x') })
      .expect(401);
  });

  it('answers 404 for an unknown organization', async () => {
    await service.request
      .post(`${api}/orgs/no-such-org/rename`)
      .set(...auth(alice.token))
      .send({ new_name: uniqueName('x') })
      .expect(404);
  });
});

describe('DELETE /orgs/{org} (orgDelete)', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it('deletes the organization (204) and leaves its neighbour alone', async () => {
    const org = await createOrg(service, alice);
    const neighbour = await createOrg(service, alice);
    await service.request
      .delete(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(204, '');
    await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(404);
    await service.request
      .get(`${api}/orgs/${neighbour.name}`)
      .set(...auth(alice.token))
      .expect(200);
  });

  it('frees the name for a new account', async () => {
    const org = await createOrg(service, alice);
    await service.request
      .delete(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(204);
    await createOrg(service, alice, { username: org.name });
  });

  it('refuses with 409 while the organization owns repositories, and loses nothing', async () => {
    const org = await createOrg(service, alice);
    const repo = await createOrgRepo(service, alice.token, org.name);
    const response = await service.request
      .delete(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(409);
    expect(response.body).toEqual(errorBody(/repositories.*delete(d)? or transfer/i));
    await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    await service.request
      .get(`${api}/repos/${org.name}/${repo}`)
      .set(...auth(alice.token))
      .expect(200);
    await service.request
      .delete(`${api}/repos/${org.name}/${repo}`)
      .set(...auth(alice.token))
      .expect(204);
    await service.request
      .delete(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(204);
  });

  it('answers 403 for a member who is not an owner', async () => {
    const org = await createOrg(service, alice);
    const member = await createUser(service, 'member');
    await addToTeam(
      service,
      alice.token,
      await createTeam(service, alice.token, org.name, { permission: 'admin' }),
      member.username,
    );
    await service.request
      .delete(`${api}/orgs/${org.name}`)
      .set(...auth(member.token))
      .expect(403);
    await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
  });

  it('answers 401 for an anonymous caller', async () => {
    const org = await createOrg(service, alice);
    await service.request.delete(`${api}/orgs/${org.name}`).expect(401);
    await service.request.get(`${api}/orgs/${org.name}`).expect(200);
  });

  it('answers 404 for an unknown organization', async () => {
    await service.request
      .delete(`${api}/orgs/no-such-org`)
      .set(...auth(alice.token))
      .expect(404);
  });
});

describe('GET /user/orgs (orgListCurrentUserOrgs)', () => {
  it("lists the caller's organizations of every visibility, alphabetically", async () => {
    const carol = await createUser(service, 'carol');
    const b = await createOrg(service, carol, { username: uniqueName('b-carol'), visibility: 'private' });
    const a = await createOrg(service, carol, { username: uniqueName('a-carol'), visibility: 'limited' });
    const elsewhere = await createUser(service, 'elsewhere');
    await createOrg(service, elsewhere);
    const response = await service.request
      .get(`${api}/user/orgs`)
      .set(...auth(carol.token))
      .expect(200);
    expect(response.body.map((org: { name: string }) => org.name)).toEqual([a.name, b.name]);
    expect(response.headers['x-total-count']).toBe('2');
  });

  it('includes organizations joined through a team', async () => {
    const owner = await createUser(service, 'owner');
    const joiner = await createUser(service, 'joiner');
    const org = await createOrg(service, owner, { visibility: 'private' });
    await addToTeam(service, owner.token, await createTeam(service, owner.token, org.name), joiner.username);
    const response = await service.request
      .get(`${api}/user/orgs`)
      .set(...auth(joiner.token))
      .expect(200);
    expect(response.body.map((entry: { name: string }) => entry.name)).toEqual([org.name]);
  });

  it('answers 401 for an anonymous caller', async () => {
    await service.request.get(`${api}/user/orgs`).expect(401);
  });
});

describe('GET /users/{username}/orgs (orgListUserOrgs)', () => {
  it("lists the user's organizations the requester may see", async () => {
    const dave = await createUser(service, 'dave');
    const open = await createOrg(service, dave, { visibility: 'public' });
    const limited = await createOrg(service, dave, { visibility: 'limited' });
    const hidden = await createOrg(service, dave, { visibility: 'private' });
    const names = (body: { name: string }[]) => body.map((org) => org.name).sort();

    const anonymous = await service.request.get(`${api}/users/${dave.username}/orgs`).expect(200);
    expect(names(anonymous.body)).toEqual([open.name]);
    const stranger = await createUser(service, 'stranger');
    const signedIn = await service.request
      .get(`${api}/users/${dave.username}/orgs`)
      .set(...auth(stranger.token))
      .expect(200);
    expect(names(signedIn.body)).toEqual([open.name, limited.name].sort());
    const self = await service.request
      .get(`${api}/users/${dave.username}/orgs`)
      .set(...auth(dave.token))
      .expect(200);
    expect(names(self.body)).toEqual([open.name, limited.name, hidden.name].sort());
    const admin = await service.request
      .get(`${api}/users/${dave.username}/orgs`)
      .set('Authorization', adminAuthorization)
      .expect(200);
    expect(names(admin.body)).toEqual([open.name, limited.name, hidden.name].sort());
  });

  it('shows a private organization to a requester who is a member of it too', async () => {
    const erin = await createUser(service, 'erin');
    const frank = await createUser(service, 'frank');
    const shared = await createOrg(service, erin, { visibility: 'private' });
    await addToTeam(service, erin.token, await createTeam(service, erin.token, shared.name), frank.username);
    const response = await service.request
      .get(`${api}/users/${erin.username}/orgs`)
      .set(...auth(frank.token))
      .expect(200);
    expect(response.body.map((org: { name: string }) => org.name)).toEqual([shared.name]);
  });

  it('answers 404 for an unknown user', async () => {
    await service.request.get(`${api}/users/nobody-here/orgs`).expect(404);
  });
});

describe('GET /users/{username}/orgs/{org}/permissions (orgGetUserPermissions)', () => {
  let owner: Actor;
  let org: { name: string };
  beforeAll(async () => {
    owner = await createUser(service, 'owner');
    org = await createOrg(service, owner, { visibility: 'limited' });
  });

  it.each([
    [
      'read',
      { can_read: true, can_write: false, is_admin: false, is_owner: false, can_create_repository: false },
    ],
    [
      'write',
      { can_read: true, can_write: true, is_admin: false, is_owner: false, can_create_repository: false },
    ],
    [
      'admin',
      { can_read: true, can_write: true, is_admin: true, is_owner: false, can_create_repository: false },
    ],
    [
      'owner',
      { can_read: true, can_write: true, is_admin: true, is_owner: true, can_create_repository: true },
    ],
  ])('derives the flags from a %s team', async (permission, expected) => {
    const user = await createUser(service, permission);
    await addToTeam(
      service,
      owner.token,
      await createTeam(service, owner.token, org.name, { permission }),
      user.username,
    );
    const response = await service.request
      .get(`${api}/users/${user.username}/orgs/${org.name}/permissions`)
      .set(...auth(user.token))
      .expect(200);
    expect(response.body).toEqual(expected);
  });

  it('takes the highest level of all the user’s teams', async () => {
    const user = await createUser(service, 'multi');
    await addToTeam(
      service,
      owner.token,
      await createTeam(service, owner.token, org.name, { permission: 'read' }),
      user.username,
    );
    await addToTeam(
      service,
      owner.token,
      await createTeam(service, owner.token, org.name, { permission: 'admin' }),
      user.username,
    );
    const response = await service.request
      .get(`${api}/users/${user.username}/orgs/${org.name}/permissions`)
      .set(...auth(user.token))
      .expect(200);
    expect(response.body).toMatchObject({ is_admin: true, is_owner: false });
  });

  it('sets can_create_repository from a team that may create repositories', async () => {
    const user = await createUser(service, 'creator');
    await addToTeam(
      service,
      owner.token,
      await createTeam(service, owner.token, org.name, { permission: 'read', can_create_org_repo: true }),
      user.username,
    );
    const response = await service.request
      .get(`${api}/users/${user.username}/orgs/${org.name}/permissions`)
      .set(...auth(user.token))
      .expect(200);
    expect(response.body).toEqual({
      can_read: true,
      can_write: false,
      is_admin: false,
      is_owner: false,
      can_create_repository: true,
    });
  });

  it('answers all false for a user outside the organization, as seen by an owner', async () => {
    const outsider = await createUser(service, 'outsider');
    const response = await service.request
      .get(`${api}/users/${outsider.username}/orgs/${org.name}/permissions`)
      .set(...auth(owner.token))
      .expect(200);
    expect(response.body).toEqual({
      can_read: false,
      can_write: false,
      is_admin: false,
      is_owner: false,
      can_create_repository: false,
    });
  });

  it("answers 403 when the requester may not see the user's membership", async () => {
    const nosy = await createUser(service, 'nosy');
    const response = await service.request
      .get(`${api}/users/${owner.username}/orgs/${org.name}/permissions`)
      .set(...auth(nosy.token))
      .expect(403);
    expect(response.body.url).toBe(`${testRootUrl}api/swagger`);
  });

  it('answers 404 when the organization is not visible to the requester', async () => {
    const secret = await createOrg(service, owner, { visibility: 'private' });
    const nosy = await createUser(service, 'nosy');
    await service.request
      .get(`${api}/users/${nosy.username}/orgs/${secret.name}/permissions`)
      .set(...auth(nosy.token))
      .expect(404);
  });

  it('answers 401 for an anonymous caller', async () => {
    await service.request.get(`${api}/users/${owner.username}/orgs/${org.name}/permissions`).expect(401);
  });

  it('answers 404 for an unknown organization or user', async () => {
    await service.request
      .get(`${api}/users/${owner.username}/orgs/no-such-org/permissions`)
      .set(...auth(owner.token))
      .expect(404);
    await service.request
      .get(`${api}/users/nobody-here/orgs/${org.name}/permissions`)
      .set(...auth(owner.token))
      .expect(404);
  });
});

describe('GET /orgs/{org}/activities/feeds (orgListActivityFeeds)', () => {
  let owner: Actor;
  let member: Actor;
  let outsider: Actor;
  let org: { name: string; id: number };
  let publicRepo: string;
  let privateRepo: string;

  beforeAll(async () => {
    owner = await createUser(service, 'owner');
    member = await createUser(service, 'member');
    outsider = await createUser(service, 'outsider');
    org = await createOrg(service, owner);
    await addToTeam(
      service,
      owner.token,
      await createTeam(service, owner.token, org.name, {
        permission: 'write',
        includes_all_repositories: true,
      }),
      member.username,
    );
    publicRepo = await createOrgRepo(service, owner.token, org.name);
    privateRepo = await createOrgRepo(service, owner.token, org.name, { private: true });
    await service.request
      .post(`${api}/repos/${org.name}/${publicRepo}/issues`)
      .set(...auth(member.token))
      .send({ title: 'public issue' })
      .expect(201);
    await service.request
      .post(`${api}/repos/${org.name}/${privateRepo}/issues`)
      .set(...auth(member.token))
      .send({ title: 'private issue' })
      .expect(201);
  });

  const repoNames = (body: { repo: { name: string } }[]) =>
    [...new Set(body.map((entry) => entry.repo.name))].sort();

  it('lists the actions newest first with their Gitea op_type, and sets X-Total-Count', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set(...auth(owner.token))
      .expect(200);
    expect(response.body.map((entry: { op_type: string }) => entry.op_type)).toEqual([
      'create_issue',
      'create_issue',
      'create_repo',
      'create_repo',
    ]);
    expect(response.headers['x-total-count']).toBe('4');
    const created = response.body.map((entry: { created: string }) => entry.created);
    expect([...created].sort().reverse()).toEqual(created);
    expect(response.body[0]).toMatchObject({
      user_id: org.id,
      act_user_id: member.id,
      act_user: { login: member.username },
      repo: { full_name: `${org.name}/${privateRepo}` },
      content: '1|private issue',
      is_private: true,
      comment: null,
    });
  });

  it('rule 7: includes private entries for a member', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set(...auth(member.token))
      .expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo, privateRepo].sort());
  });

  it('rule 7: includes private entries for a site administrator', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set('Authorization', adminAuthorization)
      .expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo, privateRepo].sort());
  });

  it('rule 7: leaves out private entries for a signed-in non-member', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set(...auth(outsider.token))
      .expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo]);
    expect(response.body.every((entry: { is_private: boolean }) => !entry.is_private)).toBe(true);
    expect(response.headers['x-total-count']).toBe('2');
  });

  it('rule 7: leaves out private entries for an anonymous caller', async () => {
    const response = await service.request.get(`${api}/orgs/${org.name}/activities/feeds`).expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo]);
  });

  it('rule 7: leaves out private entries for a member using a public-only token', async () => {
    const token = await createToken(service, member, ['read:organization', 'public-only']);
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set(...auth(token))
      .expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo]);
  });

  it('rule 7: narrows the feed to one date', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const todays = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .query({ date: today })
      .set(...auth(owner.token))
      .expect(200);
    expect(todays.body).toHaveLength(4);
    const other = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .query({ date: '2001-02-03' })
      .set(...auth(owner.token))
      .expect(200);
    expect(other.body).toEqual([]);
    expect(other.headers['x-total-count']).toBe('0');
  });

  it('answers 422 for a date that is not YYYY-MM-DD', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .query({ date: '2024-13-45' })
      .expect(422);
    expect(response.body.message).toMatch(/date/);
  });

  it('records close, reopen, pull request and rename actions', async () => {
    const repo = await createOrgRepo(service, owner.token, org.name);
    await service.request
      .post(`${api}/repos/${org.name}/${repo}/issues`)
      .set(...auth(owner.token))
      .send({ title: 'to close' })
      .expect(201);
    await service.request
      .patch(`${api}/repos/${org.name}/${repo}/issues/1`)
      .set(...auth(owner.token))
      .send({ state: 'closed' })
      .expect(201);
    await service.request
      .patch(`${api}/repos/${org.name}/${repo}/issues/1`)
      .set(...auth(owner.token))
      .send({ state: 'open' })
      .expect(201);
    await service.request
      .post(`${api}/repos/${org.name}/${repo}/pulls`)
      .set(...auth(owner.token))
      .send({ title: 'pr', head: 'feature', base: 'main' })
      .expect(201);
    await service.request
      .patch(`${api}/repos/${org.name}/${repo}`)
      .set(...auth(owner.token))
      .send({ name: `${repo}-renamed` })
      .expect(200);
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .query({ limit: 6 })
      .set(...auth(owner.token))
      .expect(200);
    expect(response.body.slice(0, 6).map((entry: { op_type: string }) => entry.op_type)).toEqual([
      'rename_repo',
      'create_pull_request',
      'reopen_issue',
      'close_issue',
      'create_issue',
      'create_repo',
    ]);
    expect(response.body[0].content).toBe(repo);
  });

  it('answers 404 for an organization the caller may not see', async () => {
    const hidden = await createOrg(service, owner, { visibility: 'private' });
    await service.request
      .get(`${api}/orgs/${hidden.name}/activities/feeds`)
      .set(...auth(outsider.token))
      .expect(404);
    await service.request.get(`${api}/orgs/no-such-org/activities/feeds`).expect(404);
  });
});

describe('teams and membership', () => {
  it('answers 403 when a non-owner creates a team, and 422 for a duplicate team name', async () => {
    const owner = await createUser(service, 'owner');
    const member = await createUser(service, 'member');
    const org = await createOrg(service, owner);
    const teamId = await createTeam(service, owner.token, org.name, { name: 'devs' });
    await addToTeam(service, owner.token, teamId, member.username);
    await service.request
      .post(`${api}/orgs/${org.name}/teams`)
      .set(...auth(member.token))
      .send({ name: 'other' })
      .expect(403);
    await service.request
      .post(`${api}/orgs/${org.name}/teams`)
      .set(...auth(owner.token))
      .send({ name: 'DEVS' })
      .expect(422);
  });

  it('removes a member from a team, and refuses to remove the last owner', async () => {
    const owner = await createUser(service, 'owner');
    const member = await createUser(service, 'member');
    const org = await createOrg(service, owner);
    const teamId = await createTeam(service, owner.token, org.name);
    await addToTeam(service, owner.token, teamId, member.username);
    await service.request
      .delete(`${api}/teams/${teamId}/members/${member.username}`)
      .set(...auth(owner.token))
      .expect(204);
    const permissions = await service.request
      .get(`${api}/users/${member.username}/orgs/${org.name}/permissions`)
      .set(...auth(owner.token))
      .expect(200);
    expect(permissions.body.can_read).toBe(false);
    const owners = await ownerTeamId(owner.token, org.name);
    await service.request
      .delete(`${api}/teams/${owners}/members/${owner.username}`)
      .set(...auth(owner.token))
      .expect(409);
  });

  it('lists teams to members only (403 for others, 401 for anonymous)', async () => {
    const owner = await createUser(service, 'owner');
    const stranger = await createUser(service, 'stranger');
    const org = await createOrg(service, owner);
    await service.request
      .get(`${api}/orgs/${org.name}/teams`)
      .set(...auth(stranger.token))
      .expect(403);
    await service.request.get(`${api}/orgs/${org.name}/teams`).expect(401);
  });

  it('answers 404 for an unknown team or user', async () => {
    const owner = await createUser(service, 'owner');
    const org = await createOrg(service, owner);
    const teamId = await createTeam(service, owner.token, org.name);
    await service.request
      .put(`${api}/teams/999999/members/${owner.username}`)
      .set(...auth(owner.token))
      .expect(404);
    await service.request
      .put(`${api}/teams/${teamId}/members/nobody-here`)
      .set(...auth(owner.token))
      .expect(404);
  });
});

describe('input the database cannot take', () => {
  it('answers 422, not a server error, for a NUL character in an organization field', async () => {
    const response = await service.request
      .post(`${api}/orgs`)
      .set('Authorization', adminAuthorization)
      .send({ username: uniqueName('nulorg'), full_name: 'before\u0000after' })
      .expect(422);
    expect(response.body).toEqual(
      errorBody('request contains a NUL character (U+0000), which is not accepted'),
    );
  });

  it('answers 422 for a NUL character in a looked-up name', async () => {
    await service.request.get(`${api}/orgs/a%00b`).set('Authorization', adminAuthorization).expect(422);
  });

  it.each(['99999999999999999999', '9223372036854775807'])(
    'answers 404 for team id %s, beyond any id that can exist',
    async (id) => {
      const response = await service.request
        .put(`${api}/teams/${id}/members/nobody`)
        .set('Authorization', adminAuthorization)
        .expect(404);
      expect(response.body).toEqual(errorBody(/^team .* does not exist$/));
    },
  );
});

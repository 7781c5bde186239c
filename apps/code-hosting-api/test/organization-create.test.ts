import { testRootUrl, useCodeHostingApi } from './app';
import {
  adminAuthorization,
  adminToken,
  api,
  auth,
  createOrg,
  createUser,
  uniqueName,
  type Actor,
} from './actors';
import { errorBody, permissionsIn } from './organization-fixtures';

const service = useCodeHostingApi();

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
    expect(await permissionsIn(service, org.name, alice.username, alice.token)).toEqual({
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
  });
});

import { siteAdmin, testRootUrl, useCodeHostingApi } from './app';
import {
  adminAuthorization,
  api,
  auth,
  basic,
  createOrg,
  createToken,
  createUser,
  type Actor,
} from './actors';

const service = useCodeHostingApi();
const tokenRequired = { message: 'token is required', url: `${testRootUrl}api/swagger` };

let alice: Actor;
beforeAll(async () => {
  alice = await createUser(service, 'alice');
});

describe('authentication', () => {
  it('accepts "Authorization: token <t>"', async () => {
    const response = await service.request
      .get(`${api}/user`)
      .set('Authorization', `token ${alice.token}`)
      .expect(200);
    expect(response.body).toMatchObject({
      id: alice.id,
      login: alice.username,
      username: alice.username,
      email: `${alice.username}@example.com`,
    });
  });

  it('accepts "Authorization: Bearer <t>"', async () => {
    const response = await service.request
      .get(`${api}/user`)
      .set('Authorization', `Bearer ${alice.token}`)
      .expect(200);
    expect(response.body.login).toBe(alice.username);
  });

  it.each(['token', 'access_token'])('accepts the %s query parameter', async (parameter) => {
    const response = await service.request
      .get(`${api}/user`)
      .query({ [parameter]: alice.token })
      .expect(200);
    expect(response.body.login).toBe(alice.username);
  });

  it('accepts Basic auth with username and password', async () => {
    const response = await service.request
      .get(`${api}/user`)
      .set('Authorization', basic(alice.username, alice.password))
      .expect(200);
    expect(response.body.login).toBe(alice.username);
  });

  it('accepts Basic auth with a token as the username or as the password', async () => {
    await service.request.get(`${api}/user`).set('Authorization', basic(alice.token, '')).expect(200);
    await service.request
      .get(`${api}/user`)
      .set('Authorization', basic(alice.token, 'x-oauth-basic'))
      .expect(200);
    const response = await service.request
      .get(`${api}/user`)
      .set('Authorization', basic(alice.username, alice.token))
      .expect(200);
    expect(response.body.login).toBe(alice.username);
  });

  it.each([
    ['a wrong password', () => basic(alice.username, 'wrong')],
    ['an unknown user', () => basic('nobody-here', 'whatever')],
    ['an unknown token', () => `token ${'0'.repeat(40)}`],
    ['an unknown scheme', () => 'Digest abc'],
  ])('answers 401 for %s', async (_case, header) => {
    const response = await service.request.get(`${api}/orgs`).set('Authorization', header()).expect(401);
    expect(response.body.url).toBe(`${testRootUrl}api/swagger`);
  });

  it('answers 401 "token is required" when an operation needs a user and none is given', async () => {
    await service.request.get(`${api}/user`).expect(401, tokenRequired);
  });

  it('stores tokens hashed: a token stops working once deleted by name', async () => {
    const token = await createToken(service, alice, ['all'], 'to-delete');
    await service.request
      .get(`${api}/user`)
      .set(...auth(token))
      .expect(200);
    await service.request
      .delete(`${api}/users/${alice.username}/tokens/to-delete`)
      .set('Authorization', basic(alice.username, alice.password))
      .expect(204);
    await service.request
      .get(`${api}/user`)
      .set(...auth(token))
      .expect(401);
  });

  it('deletes a token by id, and answers 404 for an unknown one', async () => {
    const response = await service.request
      .post(`${api}/users/${alice.username}/tokens`)
      .set('Authorization', basic(alice.username, alice.password))
      .send({ name: 'by-id', scopes: ['read:user'] })
      .expect(201);
    expect(response.body).toMatchObject({
      name: 'by-id',
      scopes: ['read:user'],
      token_last_eight: response.body.sha1.slice(-8),
    });
    expect(response.body.sha1).toMatch(/^[0-9a-f]{40}$/);
    await service.request
      .delete(`${api}/users/${alice.username}/tokens/${response.body.id}`)
      .set('Authorization', basic(alice.username, alice.password))
      .expect(204);
    await service.request
      .delete(`${api}/users/${alice.username}/tokens/${response.body.id}`)
      .set('Authorization', basic(alice.username, alice.password))
      .expect(404);
  });

  it('creates tokens only with Basic auth and a password', async () => {
    await service.request
      .post(`${api}/users/${alice.username}/tokens`)
      .set(...auth(alice.token))
      .send({ name: 'x', scopes: ['all'] })
      .expect(401);
  });

  it('refuses tokens without scopes, with unknown scopes or with a name in use', async () => {
    const headers = ['Authorization', basic(alice.username, alice.password)] as const;
    await service.request
      .post(`${api}/users/${alice.username}/tokens`)
      .set(...headers)
      .send({ name: 'no-scope' })
      .expect(400);
    await service.request
      .post(`${api}/users/${alice.username}/tokens`)
      .set(...headers)
      .send({ name: 'bad', scopes: ['everything'] })
      .expect(400);
    await service.request
      .post(`${api}/users/${alice.username}/tokens`)
      .set(...headers)
      .send({ name: 'dup', scopes: ['all'] })
      .expect(201);
    await service.request
      .post(`${api}/users/${alice.username}/tokens`)
      .set(...headers)
      .send({ name: 'dup', scopes: ['all'] })
      .expect(400);
  });

  it('answers 403 when a user creates a token for someone else', async () => {
    const bob = await createUser(service, 'bob');
    await service.request
      .post(`${api}/users/${alice.username}/tokens`)
      .set('Authorization', basic(bob.username, bob.password))
      .send({ name: 'x', scopes: ['all'] })
      .expect(403);
  });

  it('answers 403 when a token lacks the scope an operation needs', async () => {
    const readOnly = await createToken(service, alice, ['read:organization']);
    await service.request
      .get(`${api}/orgs`)
      .set(...auth(readOnly))
      .expect(200);
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(readOnly))
      .send({ username: 'scoped-out' })
      .expect(403);
    expect(response.body.message).toMatch(/write:organization/);
  });
});

describe('request decoding', () => {
  it('reads a JSON body sent without a JSON content type, as Gitea’s binding does', async () => {
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ username: 'plain-text-org' }))
      .expect(201);
    expect(response.body.name).toBe('plain-text-org');
  });

  it('answers 400 for a malformed JSON body', async () => {
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(alice.token))
      .set('Content-Type', 'application/json')
      .send('{"username":')
      .expect(400);
    expect(response.body.url).toBeDefined();
  });

  it('takes the first of repeated query parameters', async () => {
    await createOrg(service, alice);
    await createOrg(service, alice);
    const response = await service.request.get(`${api}/orgs?limit=1&limit=5`).expect(200);
    expect(response.body).toHaveLength(1);
    expect(Number(response.headers['x-total-count'])).toBeGreaterThan(1);
  });
});

describe('sudo', () => {
  it('lets a site administrator act as another user with the Sudo header', async () => {
    const response = await service.request
      .get(`${api}/user`)
      .set('Authorization', adminAuthorization)
      .set('Sudo', alice.username)
      .expect(200);
    expect(response.body.login).toBe(alice.username);
  });

  it('lets a site administrator act as another user with the sudo query', async () => {
    await service.request
      .post(`${api}/orgs`)
      .query({ sudo: alice.username })
      .set('Authorization', adminAuthorization)
      .send({ username: 'sudo-made' })
      .expect(201);
    const owned = await service.request
      .get(`${api}/user/orgs`)
      .set(...auth(alice.token))
      .expect(200);
    expect(owned.body.map((org: { name: string }) => org.name)).toContain('sudo-made');
  });

  it('answers 403 to a non-admin using sudo', async () => {
    const bob = await createUser(service, 'bob');
    await service.request
      .get(`${api}/user`)
      .set(...auth(bob.token))
      .set('Sudo', alice.username)
      .expect(403);
  });

  it('answers 404 when the sudo user does not exist', async () => {
    await service.request
      .get(`${api}/user`)
      .set('Authorization', adminAuthorization)
      .set('Sudo', 'nobody-here')
      .expect(404);
  });
});

describe('users', () => {
  it('POST /admin/users answers 403 to a non-admin and 401 to anonymous', async () => {
    await service.request
      .post(`${api}/admin/users`)
      .set(...auth(alice.token))
      .send({ username: 'x1', email: 'x1@example.com', password: 'pw' })
      .expect(403);
    await service.request
      .post(`${api}/admin/users`)
      .send({ username: 'x1', email: 'x1@example.com', password: 'pw' })
      .expect(401);
  });

  it('POST /admin/users answers 422 for a taken name (also by an organization), a reserved name or a bad email', async () => {
    const org = await createOrg(service, alice);
    for (const body of [
      { username: alice.username.toUpperCase(), email: 'a@example.com', password: 'pw' },
      { username: org.name, email: 'a@example.com', password: 'pw' },
      { username: 'explore', email: 'a@example.com', password: 'pw' },
      { username: 'fine-name', email: 'not-an-email', password: 'pw' },
    ]) {
      await service.request
        .post(`${api}/admin/users`)
        .set('Authorization', adminAuthorization)
        .send(body)
        .expect(422);
    }
  });

  it('an invalid email is the same 422 on every route that takes one (users and organizations)', async () => {
    const org = await createOrg(service, alice);
    const bad = 'not-an-email';
    const expected = { message: `email: e-mail address is invalid [email: ${bad}]`, url: tokenRequired.url };
    const requests = [
      service.request
        .post(`${api}/admin/users`)
        .set('Authorization', adminAuthorization)
        .send({ username: 'bad-email-user', email: bad, password: 'pw' }),
      service.request
        .patch(`${api}/admin/users/${alice.username}`)
        .set('Authorization', adminAuthorization)
        .send({ email: bad }),
      service.request
        .post(`${api}/orgs`)
        .set(...auth(alice.token))
        .send({ username: 'bad-email-org', email: bad }),
      service.request
        .patch(`${api}/orgs/${org.name}`)
        .set(...auth(alice.token))
        .send({ email: bad }),
    ];
    for (const request of requests) {
      const response = await request;
      expect({ status: response.status, body: response.body }).toEqual({ status: 422, body: expected });
    }
  });

  it('GET /users/{username} shows the profile and hides the email from others', async () => {
    const bob = await createUser(service, 'bob');
    const response = await service.request
      .get(`${api}/users/${alice.username}`)
      .set(...auth(bob.token))
      .expect(200);
    expect(response.body).toMatchObject({ login: alice.username, is_admin: false });
    expect(response.body.email).not.toBe(`${alice.username}@example.com`);
  });

  it('GET /users/{username} answers 404 for an unknown user and for a private user seen by others', async () => {
    await service.request.get(`${api}/users/nobody-here`).expect(404);
    const hidden = await createUser(service, 'hidden', { visibility: 'private' });
    await service.request
      .get(`${api}/users/${hidden.username}`)
      .set(...auth(alice.token))
      .expect(404);
    await service.request
      .get(`${api}/users/${hidden.username}`)
      .set(...auth(hidden.token))
      .expect(200);
  });

  it('GET /api/swagger, the url of every error body, is the page showing the API document', async () => {
    const response = await service.request.get('/api/swagger').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('data-document="../swagger.v1.json"');
  });

  it('the bootstrap administrator is a site administrator', async () => {
    const response = await service.request
      .get(`${api}/user`)
      .set('Authorization', basic(siteAdmin.username, siteAdmin.password))
      .expect(200);
    expect(response.body.is_admin).toBe(true);
  });
});

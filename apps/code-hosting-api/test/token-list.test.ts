import { adminAuthorization, api, auth, basic, createToken, createUser } from './actors';
import { useCodeHostingApi } from './app';

// GET /users/{username}/tokens (Gitea's userGetTokens): the tokens of a user, never their
// secrets, for that user or a site administrator signed in with a password. The Go SDK's
// ListAccessTokens, which tea calls before it creates its login token.
const service = useCodeHostingApi();

describe('GET /users/{username}/tokens (userGetTokens)', () => {
  it("lists the user's tokens newest first, without secrets, paged with X-Total-Count", async () => {
    const user = await createUser(service, 'token-lister');
    const second = await createToken(service, user, ['read:user'], 'second');
    const response = await service.request
      .get(`${api}/users/${user.username}/tokens`)
      .set('Authorization', basic(user.username, user.password))
      .expect(200);
    // createUser made one token first.
    expect(response.body).toHaveLength(2);
    expect(response.headers['x-total-count']).toBe('2');
    expect(response.body[0]).toEqual(
      expect.objectContaining({
        name: 'second',
        sha1: '',
        token_last_eight: second.slice(-8),
        scopes: ['read:user'],
      }),
    );
    expect(JSON.stringify(response.body)).not.toContain(second);
    const page = await service.request
      .get(`${api}/users/${user.username}/tokens`)
      .query({ page: 2, limit: 1 })
      .set('Authorization', basic(user.username, user.password))
      .expect(200);
    expect(page.body).toHaveLength(1);
    expect(page.headers.link).toMatch(/rel="prev"/);
  });

  it("lets a site administrator list another user's tokens", async () => {
    const user = await createUser(service, 'token-owner');
    const response = await service.request
      .get(`${api}/users/${user.username}/tokens`)
      .set('Authorization', adminAuthorization)
      .expect(200);
    expect(response.body).toHaveLength(1);
  });

  it('refuses another user (403) and token authentication (401)', async () => {
    const owner = await createUser(service, 'token-owner');
    const other = await createUser(service, 'token-other');
    await service.request
      .get(`${api}/users/${owner.username}/tokens`)
      .set('Authorization', basic(other.username, other.password))
      .expect(403);
    await service.request
      .get(`${api}/users/${owner.username}/tokens`)
      .set(...auth(owner.token))
      .expect(401);
  });
});

import { useCodeHostingApi, testRootUrl } from './app';
import { api, auth, createOrg, createUser } from './actors';

// Every avatar_url the API hands out resolves to an image: a generated default, as Gitea serves.

const service = useCodeHostingApi();

/** The path of an absolute URL under the test ROOT_URL. */
function sitePath(url: string): string {
  expect(url.startsWith(testRootUrl)).toBe(true);
  return `/${url.slice(testRootUrl.length)}`;
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function fetchAvatar(url: string) {
  const response = await service.request.get(sitePath(url)).buffer(true);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toMatch(/^image\/png/);
  expect(response.headers['cache-control']).toMatch(/max-age=\d+/);
  expect((response.body as Buffer).subarray(0, 8)).toEqual(pngSignature);
  return response.body as Buffer;
}

describe('avatar_url', () => {
  it('every avatar_url of users, organizations and repository owners serves a PNG, anonymously', async () => {
    const owner = await createUser(service, 'avatar-owner');
    const org = await createOrg(service, owner, { visibility: 'private' });
    const urls: string[] = [];
    urls.push((await service.request.get(`${api}/user`).set(...auth(owner.token))).body.avatar_url);
    urls.push((await service.request.get(`${api}/users/${owner.username}`)).body.avatar_url);
    urls.push(
      (await service.request.get(`${api}/orgs/${org.name}`).set(...auth(owner.token))).body.avatar_url,
    );
    for (const listed of (await service.request.get(`${api}/user/orgs`).set(...auth(owner.token))).body) {
      urls.push(listed.avatar_url);
    }
    const repo = await service.request
      .post(`${api}/orgs/${org.name}/repos`)
      .set(...auth(owner.token))
      .send({ name: 'pictured' });
    urls.push(repo.body.owner.avatar_url);
    expect(new Set(urls).size).toBe(2);
    for (const url of urls) await fetchAvatar(url);
  });

  it('is the same picture every time, and differs between accounts', async () => {
    const first = await createUser(service, 'avatar-a');
    const second = await createUser(service, 'avatar-b');
    const a = `${testRootUrl}avatars/${first.id}`;
    expect(await fetchAvatar(a)).toEqual(await fetchAvatar(a));
    expect(await fetchAvatar(a)).not.toEqual(await fetchAvatar(`${testRootUrl}avatars/${second.id}`));
  });

  it("takes Gitea's size parameter, bounded", async () => {
    const user = await createUser(service, 'avatar-size');
    const small = await fetchAvatar(`${testRootUrl}avatars/${user.id}?size=32`);
    const big = await fetchAvatar(`${testRootUrl}avatars/${user.id}?size=99999`);
    // PNG IHDR: width at bytes 16..20.
    expect(small.readUInt32BE(16)).toBe(32);
    expect(big.readUInt32BE(16)).toBe(512);
  });

  it('cannot tell an id no account has, or a private account, from a public one', async () => {
    const owner = await createUser(service, 'avatar-private');
    const hidden = await createOrg(service, owner, { visibility: 'private' });
    const hiddenId = (await service.request.get(`${api}/orgs/${hidden.name}`).set(...auth(owner.token))).body
      .id as number;
    const unknown = await fetchAvatar(`${testRootUrl}avatars/999999`);
    const privateOrg = await fetchAvatar(`${testRootUrl}avatars/${hiddenId}`);
    expect(unknown).not.toEqual(privateOrg);
  });

  it('needs no token scope: an <img> of a token without read:user still loads', async () => {
    const user = await createUser(service, 'avatar-scopes');
    const narrow = await service.request
      .post(`${api}/users/${user.username}/tokens`)
      .auth(user.username, user.password)
      .send({ name: 'repo-only', scopes: ['read:repository'] });
    expect(narrow.status).toBe(201);
    const response = await service.request
      .get(`/avatars/${user.id}`)
      .set('Authorization', `token ${narrow.body.sha1 as string}`);
    expect(response.status).toBe(200);
  });

  it('answers 404 for a malformed id', async () => {
    for (const id of ['0', 'abc', '1e3', '-1', '99999999999999999999']) {
      const response = await service.request.get(`/avatars/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.url).toBe(`${testRootUrl}api/swagger`);
    }
  });
});

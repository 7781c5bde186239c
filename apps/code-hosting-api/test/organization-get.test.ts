import { testRootUrl, useCodeHostingApi } from './app';
import { adminAuthorization, api, auth, createOrg, createUser, type Actor } from './actors';

const service = useCodeHostingApi();

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

  describe('input the database cannot take', () => {
    it('answers 422 for a NUL character in a looked-up name', async () => {
      await service.request.get(`${api}/orgs/a%00b`).set('Authorization', adminAuthorization).expect(422);
    });
  });
});

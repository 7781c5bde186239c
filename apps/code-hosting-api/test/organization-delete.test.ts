import { useCodeHostingApi } from './app';
import { api, auth, createOrg, createOrgRepo, createUser, type Actor } from './actors';
import { addToNewTeam, errorBody } from './organization-fixtures';

const service = useCodeHostingApi();

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
    await addToNewTeam(service, alice.token, org.name, member.username, { permission: 'admin' });
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

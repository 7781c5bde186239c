import { useCodeHostingApi } from './app';
import { api, auth, createOrg, createUser, uniqueName } from './actors';
import { addToNewTeam } from './organization-fixtures';

const service = useCodeHostingApi();

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
    await addToNewTeam(service, owner.token, org.name, joiner.username);
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

import { useCodeHostingApi } from './app';
import { adminAuthorization, api, auth, createOrg, createUser } from './actors';
import { addToNewTeam } from './organization-fixtures';

const service = useCodeHostingApi();

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
    await addToNewTeam(service, erin.token, shared.name, frank.username);
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

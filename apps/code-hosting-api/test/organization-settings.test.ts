import { testRootUrl, useCodeHostingApi } from './app';
import { addToTeam, adminToken, api, auth, createOrg, createUser, type Actor } from './actors';

// A deployment with the danger zone restricted, regular organization creation disabled,
// and its own page sizes.
const service = useCodeHostingApi({
  orgDangerZoneRestricted: true,
  disableRegularOrgCreation: true,
  defaultPageSize: 2,
  maxPageSize: 3,
});

const dangerZone = {
  message: 'Organization danger zone actions are restricted to site administrators',
  url: `${testRootUrl}api/swagger`,
};

let admin: string;
let owner: Actor;

/** An organization a regular user owns: an administrator creates it and adds them to Owners. */
async function ownedOrg(body: Record<string, unknown> = {}): Promise<string> {
  const org = await createOrg(service, admin, body);
  const teams = await service.request
    .get(`${api}/orgs/${org.name}/teams`)
    .set(...auth(admin))
    .expect(200);
  await addToTeam(service, admin, teams.body[0].id, owner.username);
  return org.name;
}

beforeAll(async () => {
  admin = await adminToken(service);
  owner = await createUser(service, 'owner');
});

describe('rule 4: the danger-zone setting restricts actions to site administrators', () => {
  it('rule 4: answers 403 with the message when an owner renames', async () => {
    const org = await ownedOrg();
    const response = await service.request
      .post(`${api}/orgs/${org}/rename`)
      .set(...auth(owner.token))
      .send({ new_name: `${org}-x` })
      .expect(403);
    expect(response.body).toEqual(dangerZone);
    await service.request.get(`${api}/orgs/${org}`).expect(200);
  });

  it('rule 4: answers 403 with the message when an owner deletes', async () => {
    const org = await ownedOrg();
    const response = await service.request
      .delete(`${api}/orgs/${org}`)
      .set(...auth(owner.token))
      .expect(403);
    expect(response.body).toEqual(dangerZone);
    await service.request.get(`${api}/orgs/${org}`).expect(200);
  });

  it('rule 4: answers 403 with the message when an owner changes the visibility', async () => {
    const org = await ownedOrg();
    const response = await service.request
      .patch(`${api}/orgs/${org}`)
      .set(...auth(owner.token))
      .send({ visibility: 'private', full_name: 'x' })
      .expect(403);
    expect(response.body).toEqual(dangerZone);
    const reread = await service.request.get(`${api}/orgs/${org}`).expect(200);
    expect(reread.body).toMatchObject({ visibility: 'public', full_name: '' });
  });

  it('rule 4: lets an owner edit other fields and send the unchanged visibility', async () => {
    const org = await ownedOrg({ visibility: 'limited' });
    const response = await service.request
      .patch(`${api}/orgs/${org}`)
      .set(...auth(owner.token))
      .send({ visibility: 'limited', description: 'ok' })
      .expect(200);
    expect(response.body).toMatchObject({ visibility: 'limited', description: 'ok' });
  });

  it('rule 4: lets a site administrator rename, change visibility and delete', async () => {
    const org = await ownedOrg();
    await service.request
      .patch(`${api}/orgs/${org}`)
      .set(...auth(admin))
      .send({ visibility: 'limited' })
      .expect(200);
    await service.request
      .post(`${api}/orgs/${org}/rename`)
      .set(...auth(admin))
      .send({ new_name: `${org}-renamed` })
      .expect(204);
    await service.request
      .delete(`${api}/orgs/${org}-renamed`)
      .set(...auth(admin))
      .expect(204);
  });
});

describe('rule 2: a deployment that disables regular organization creation', () => {
  it('rule 2: answers 403 to a regular user', async () => {
    await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({ username: 'not-allowed' })
      .expect(403);
  });

  it('rule 2: still lets a site administrator create organizations', async () => {
    await service.request
      .post(`${api}/orgs`)
      .set(...auth(admin))
      .send({ username: 'admin-made' })
      .expect(201);
  });
});

describe('configured page sizes', () => {
  it('uses the configured default and maximum page size', async () => {
    for (let i = 0; i < 4; i += 1) await ownedOrg();
    const byDefault = await service.request.get(`${api}/orgs`).expect(200);
    expect(byDefault.body).toHaveLength(2);
    const capped = await service.request.get(`${api}/orgs?limit=50`).expect(200);
    expect(capped.body).toHaveLength(3);
    expect(capped.headers['link']).toContain('limit=50&page=2>; rel="next"');
  });
});

import { testRootUrl, useCodeHostingApi } from './app';
import { api, auth, createOrg, createUser, type Actor } from './actors';
import { addToNewTeam, permissionsIn } from './organization-fixtures';

const service = useCodeHostingApi();

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
    await addToNewTeam(service, owner.token, org.name, user.username, { permission });
    expect(await permissionsIn(service, org.name, user.username, user.token)).toEqual(expected);
  });

  it('takes the highest level of all the user’s teams', async () => {
    const user = await createUser(service, 'multi');
    await addToNewTeam(service, owner.token, org.name, user.username, { permission: 'read' });
    await addToNewTeam(service, owner.token, org.name, user.username, { permission: 'admin' });
    expect(await permissionsIn(service, org.name, user.username, user.token)).toMatchObject({
      is_admin: true,
      is_owner: false,
    });
  });

  it('sets can_create_repository from a team that may create repositories', async () => {
    const user = await createUser(service, 'creator');
    await addToNewTeam(service, owner.token, org.name, user.username, {
      permission: 'read',
      can_create_org_repo: true,
    });
    expect(await permissionsIn(service, org.name, user.username, user.token)).toEqual({
      can_read: true,
      can_write: false,
      is_admin: false,
      is_owner: false,
      can_create_repository: true,
    });
  });

  it('answers all false for a user outside the organization, as seen by an owner', async () => {
    const outsider = await createUser(service, 'outsider');
    expect(await permissionsIn(service, org.name, outsider.username, owner.token)).toEqual({
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

import { useCodeHostingApi } from './app';
import { api, auth, createOrg, createOrgRepo, createUser, uniqueName, type Actor } from './actors';
import { addToNewTeam, errorBody, permissionsIn } from './organization-fixtures';

const service = useCodeHostingApi();

describe('POST /orgs/{org}/rename (renameOrg)', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it('renames: 204, the old name stops resolving, the id, members, repositories and feed stay', async () => {
    const org = await createOrg(service, alice);
    const member = await createUser(service, 'member');
    await addToNewTeam(service, alice.token, org.name, member.username, { permission: 'write' });
    const repo = await createOrgRepo(service, alice.token, org.name);
    const newName = uniqueName('renamed');

    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: newName })
      .expect(204, '');

    await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(404);
    const renamed = await service.request
      .get(`${api}/orgs/${newName}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(renamed.body).toMatchObject({ id: org.id, name: newName, username: newName });
    expect(await permissionsIn(service, newName, member.username, member.token)).toMatchObject({
      can_write: true,
      is_admin: false,
    });
    const repository = await service.request
      .get(`${api}/repos/${newName}/${repo}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(repository.body.full_name).toBe(`${newName}/${repo}`);
    const feed = await service.request
      .get(`${api}/orgs/${newName}/activities/feeds`)
      .set(...auth(alice.token))
      .expect(200);
    expect(feed.body.map((entry: { op_type: string }) => entry.op_type)).toContain('create_repo');
  });

  it('allows changing only the letter case of the name', async () => {
    const org = await createOrg(service, alice);
    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: org.name.toUpperCase() })
      .expect(204);
    const response = await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(response.body.name).toBe(org.name.toUpperCase());
  });

  it('rule 5: answers 422 when the new name is taken by another organization or user', async () => {
    const org = await createOrg(service, alice);
    const other = await createOrg(service, alice);
    const taken = await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: other.name.toUpperCase() })
      .expect(422);
    expect(taken.body).toEqual(errorBody(/user already exists/));
    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: alice.username })
      .expect(422);
  });

  it.each([
    ['a reserved name', 'explore', /name is reserved/],
    ['a reserved pattern', 'org.keys', /name pattern is not allowed/],
    ['forbidden characters', 'bad name', /name is invalid/],
    ['a forbidden sequence', 'bad--name', /name is invalid/],
  ])('rule 5: answers 422 for %s', async (_rule, newName, message) => {
    const org = await createOrg(service, alice);
    const response = await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({ new_name: newName })
      .expect(422);
    expect(response.body).toEqual(errorBody(message));
    await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
  });

  it('answers 422 when new_name is missing', async () => {
    const org = await createOrg(service, alice);
    const response = await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(alice.token))
      .send({})
      .expect(422);
    expect(response.body.message).toMatch(/new_name/);
  });

  it('answers 403 for a member who is not an owner', async () => {
    const org = await createOrg(service, alice);
    const member = await createUser(service, 'member');
    await addToNewTeam(service, alice.token, org.name, member.username);
    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(member.token))
      .send({ new_name: uniqueName('x') })
      .expect(403);
  });

  it('answers 401 for an anonymous caller', async () => {
    const org = await createOrg(service, alice);
    await service.request
      .post(`${api}/orgs/${org.name}/rename`)
      .send({ new_name: uniqueName('x') })
      .expect(401);
  });

  it('answers 404 for an unknown organization', async () => {
    await service.request
      .post(`${api}/orgs/no-such-org/rename`)
      .set(...auth(alice.token))
      .send({ new_name: uniqueName('x') })
      .expect(404);
  });
});

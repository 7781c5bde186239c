import { useCodeHostingApi } from './app';
import { addToTeam, api, auth, createOrg, createTeam, createUser, uniqueName, type Actor } from './actors';
import { errorBody } from './organization-fixtures';

// Real parallel requests, each on its own connection, against one database
// (PGlite locally; PostgreSQL with DATABASE_URL, as CI's second run).
const service = useCodeHostingApi();

describe('organization writes racing each other', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it('20 concurrent renames of one organization: exactly one 204, the others 404 or 422, one name survives', async () => {
    const org = await createOrg(service, alice);
    const newNames = Array.from({ length: 20 }, () => uniqueName('renamed'));

    const responses = await Promise.all(
      newNames.map((newName) =>
        service.request
          .post(`${api}/orgs/${org.name}/rename`)
          .set(...auth(alice.token))
          .send({ new_name: newName }),
      ),
    );

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 204)).toHaveLength(1);
    expect(statuses.every((status) => [204, 404, 422].includes(status))).toBe(true);
    for (const refused of responses.filter((response) => response.status !== 204)) {
      expect(refused.body).toEqual(errorBody(/./));
    }
    const winner = newNames[statuses.indexOf(204)]!;
    const found = await Promise.all(
      [org.name, ...newNames].map(
        async (name) =>
          [
            name,
            (await service.request.get(`${api}/orgs/${name}`).set(...auth(alice.token))).status,
          ] as const,
      ),
    );
    expect(found.filter(([, status]) => status === 200).map(([name]) => name)).toEqual([winner]);
    const renamed = await service.request
      .get(`${api}/orgs/${winner}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(renamed.body.id).toBe(org.id);
  });

  it('50 concurrent creates of one organization name: exactly one 201, the others 422', async () => {
    const name = uniqueName('contested');
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        service.request
          .post(`${api}/orgs`)
          .set(...auth(alice.token))
          .send({ username: name }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 422)).toHaveLength(49);
    for (const refused of responses.filter((response) => response.status === 422)) {
      expect(refused.body).toEqual(errorBody(/user already exists/));
    }
    const teams = await service.request
      .get(`${api}/orgs/${name}/teams`)
      .set(...auth(alice.token))
      .expect(200);
    expect(teams.body.map((team: { name: string }) => team.name)).toEqual(['Owners']);
  });

  it('team membership changes racing with permission reads: no 5xx, and a consistent state once they settle', async () => {
    const org = await createOrg(service, alice);
    const bob = await createUser(service, 'bob');
    const writers = await createTeam(service, alice.token, org.name, { permission: 'write' });
    const admins = await createTeam(service, alice.token, org.name, { permission: 'admin' });
    await addToTeam(service, alice.token, writers, bob.username);

    const changes = Array.from({ length: 40 }, (_, i) => {
      const team = i % 2 === 0 ? admins : writers;
      const request =
        i % 4 < 2 ? service.request.put.bind(service.request) : service.request.delete.bind(service.request);
      return request(`${api}/teams/${team}/members/${bob.username}`).set(...auth(alice.token));
    });
    const permissionReads = Array.from({ length: 40 }, (_, i) =>
      service.request
        .get(`${api}/users/${bob.username}/orgs/${org.name}/permissions`)
        .set(...auth(i % 2 === 0 ? alice.token : bob.token)),
    );
    const responses = await Promise.all([...changes, ...permissionReads]);

    expect(responses.filter((response) => response.status >= 500)).toEqual([]);
    for (const response of responses.slice(0, 40)) expect([204, 404]).toContain(response.status);
    // Bob may be out of every team for a moment: then he cannot see his own permissions (403/404).
    const readOutcomes = responses
      .slice(40)
      .map((response) =>
        response.status === 200 ? `200 owner=${response.body.is_owner}` : String(response.status),
      );
    expect(readOutcomes.filter((read) => !['200 owner=false', '403', '404'].includes(read))).toEqual([]);

    // Settle: bob in writers only, then the permissions read exactly that.
    await addToTeam(service, alice.token, writers, bob.username);
    await service.request
      .delete(`${api}/teams/${admins}/members/${bob.username}`)
      .set(...auth(alice.token))
      .expect(204);
    const settled = await service.request
      .get(`${api}/users/${bob.username}/orgs/${org.name}/permissions`)
      .set(...auth(alice.token))
      .expect(200);
    expect(settled.body).toEqual({
      can_read: true,
      can_write: true,
      is_admin: false,
      is_owner: false,
      can_create_repository: false,
    });
  });
});

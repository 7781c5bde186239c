import { useCodeHostingApi } from './app';
import { addToTeam, adminAuthorization, api, auth, createOrg, createTeam, createUser } from './actors';
import { errorBody } from './organization-fixtures';

const service = useCodeHostingApi();

async function ownerTeamId(token: string, org: string): Promise<number> {
  const response = await service.request
    .get(`${api}/orgs/${org}/teams`)
    .set(...auth(token))
    .expect(200);
  return (response.body as { id: number; name: string }[]).find((team) => team.name === 'Owners')!.id;
}

describe('teams and membership', () => {
  it('answers 403 when a non-owner creates a team, and 422 for a duplicate team name', async () => {
    const owner = await createUser(service, 'owner');
    const member = await createUser(service, 'member');
    const org = await createOrg(service, owner);
    const teamId = await createTeam(service, owner.token, org.name, { name: 'devs' });
    await addToTeam(service, owner.token, teamId, member.username);
    await service.request
      .post(`${api}/orgs/${org.name}/teams`)
      .set(...auth(member.token))
      .send({ name: 'other' })
      .expect(403);
    await service.request
      .post(`${api}/orgs/${org.name}/teams`)
      .set(...auth(owner.token))
      .send({ name: 'DEVS' })
      .expect(422);
  });

  it('removes a member from a team, and refuses to remove the last owner', async () => {
    const owner = await createUser(service, 'owner');
    const member = await createUser(service, 'member');
    const org = await createOrg(service, owner);
    const teamId = await createTeam(service, owner.token, org.name);
    await addToTeam(service, owner.token, teamId, member.username);
    await service.request
      .delete(`${api}/teams/${teamId}/members/${member.username}`)
      .set(...auth(owner.token))
      .expect(204);
    const permissions = await service.request
      .get(`${api}/users/${member.username}/orgs/${org.name}/permissions`)
      .set(...auth(owner.token))
      .expect(200);
    expect(permissions.body.can_read).toBe(false);
    const owners = await ownerTeamId(owner.token, org.name);
    await service.request
      .delete(`${api}/teams/${owners}/members/${owner.username}`)
      .set(...auth(owner.token))
      .expect(409);
  });

  it('lists teams to members only (403 for others, 401 for anonymous)', async () => {
    const owner = await createUser(service, 'owner');
    const stranger = await createUser(service, 'stranger');
    const org = await createOrg(service, owner);
    await service.request
      .get(`${api}/orgs/${org.name}/teams`)
      .set(...auth(stranger.token))
      .expect(403);
    await service.request.get(`${api}/orgs/${org.name}/teams`).expect(401);
  });

  it('answers 404 for an unknown team or user', async () => {
    const owner = await createUser(service, 'owner');
    const org = await createOrg(service, owner);
    const teamId = await createTeam(service, owner.token, org.name);
    await service.request
      .put(`${api}/teams/999999/members/${owner.username}`)
      .set(...auth(owner.token))
      .expect(404);
    await service.request
      .put(`${api}/teams/${teamId}/members/nobody-here`)
      .set(...auth(owner.token))
      .expect(404);
  });

  describe('input the database cannot take', () => {
    it.each(['99999999999999999999', '9223372036854775807'])(
      'answers 404 for team id %s, beyond any id that can exist',
      async (id) => {
        const response = await service.request
          .put(`${api}/teams/${id}/members/nobody`)
          .set('Authorization', adminAuthorization)
          .expect(404);
        expect(response.body).toEqual(errorBody(/^team .* does not exist$/));
      },
    );
  });
});

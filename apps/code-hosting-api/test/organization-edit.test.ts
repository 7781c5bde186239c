import { siteAdmin, useCodeHostingApi } from './app';
import { adminAuthorization, api, auth, createOrg, createToken, createUser, type Actor } from './actors';
import { addToNewTeam, errorBody } from './organization-fixtures';

const service = useCodeHostingApi();

describe('PATCH /orgs/{org} (orgEdit)', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it('rule 6: changes only the fields supplied', async () => {
    const org = await createOrg(service, alice, {
      full_name: 'Before',
      email: 'before@example.com',
      description: 'desc',
      website: 'https://before.example',
      location: 'Here',
    });
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({ full_name: 'After' })
      .expect(200);
    expect(response.body).toMatchObject({
      full_name: 'After',
      email: 'before@example.com',
      description: 'desc',
      website: 'https://before.example',
      location: 'Here',
      visibility: 'public',
      repo_admin_change_team_access: false,
    });
    const reread = await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(reread.body).toEqual(response.body);
  });

  it('edits every field, and an empty email clears it', async () => {
    const org = await createOrg(service, alice, { email: 'old@example.com' });
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({
        description: 'd',
        website: '',
        location: 'l',
        repo_admin_change_team_access: true,
        visibility: 'limited',
        email: '',
      })
      .expect(200);
    expect(response.body).toMatchObject({
      description: 'd',
      website: '',
      location: 'l',
      repo_admin_change_team_access: true,
      visibility: 'limited',
      email: '',
    });
  });

  it('rule 6: answers 422 for an invalid email and changes nothing', async () => {
    const org = await createOrg(service, alice, { email: 'kept@example.com', description: 'kept' });
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({ email: 'broken@', description: 'changed' })
      .expect(422);
    expect(response.body).toEqual(errorBody(/email/));
    const reread = await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(reread.body).toMatchObject({ email: 'kept@example.com', description: 'kept' });
  });

  it('answers 422 for a website that is not an http(s) URL', async () => {
    const org = await createOrg(service, alice);
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({ website: 'ftp://x' })
      .expect(422);
    expect(response.body.message).toMatch(/website/);
  });

  it('answers 403 for a member who is not an owner', async () => {
    const org = await createOrg(service, alice);
    const member = await createUser(service, 'member');
    await addToNewTeam(service, alice.token, org.name, member.username, { permission: 'admin' });
    await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(member.token))
      .send({ full_name: 'x' })
      .expect(403);
    await expectUnchanged(org.name);
  });

  it("answers 403 for an owner's public-only token and changes nothing", async () => {
    const org = await createOrg(service, alice);
    const token = await createToken(service, alice, ['write:organization', 'public-only']);
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(token))
      .send({ full_name: 'x' })
      .expect(403);
    expect(response.body).toEqual(errorBody('must be an organization owner'));
    await expectUnchanged(org.name);
  });

  it("answers 403 for a site administrator's public-only token on an organization they do not own", async () => {
    const org = await createOrg(service, alice);
    const token = await createToken(service, siteAdmin, ['write:organization', 'public-only']);
    await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(token))
      .send({ full_name: 'x' })
      .expect(403);
    await expectUnchanged(org.name);
  });

  it('lets a site administrator edit any organization', async () => {
    const org = await createOrg(service, alice);
    await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set('Authorization', adminAuthorization)
      .send({ full_name: 'By admin' })
      .expect(200);
  });

  it('answers 404 for an unknown organization', async () => {
    await service.request
      .patch(`${api}/orgs/no-such-org`)
      .set(...auth(alice.token))
      .send({ full_name: 'x' })
      .expect(404);
  });

  it('answers 401 for an anonymous caller', async () => {
    const org = await createOrg(service, alice);
    await service.request.patch(`${api}/orgs/${org.name}`).send({ full_name: 'x' }).expect(401);
  });

  it('rule 4: lets an owner change the visibility when the danger zone is not restricted', async () => {
    const org = await createOrg(service, alice);
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .send({ visibility: 'private' })
      .expect(200);
    expect(response.body.visibility).toBe('private');
  });

  /** The organization as createOrg made it: no full name written. */
  async function expectUnchanged(name: string): Promise<void> {
    const reread = await service.request
      .get(`${api}/orgs/${name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(reread.body).toMatchObject({ full_name: '' });
  }
});

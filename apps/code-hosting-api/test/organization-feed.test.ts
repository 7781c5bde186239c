import { useCodeHostingApi } from './app';
import {
  adminAuthorization,
  api,
  auth,
  createOrg,
  createOrgRepo,
  createToken,
  createUser,
  type Actor,
} from './actors';
import { addToNewTeam } from './organization-fixtures';

const service = useCodeHostingApi();

describe('GET /orgs/{org}/activities/feeds (orgListActivityFeeds)', () => {
  let owner: Actor;
  let member: Actor;
  let outsider: Actor;
  let org: { name: string; id: number };
  let publicRepo: string;
  let privateRepo: string;

  beforeAll(async () => {
    owner = await createUser(service, 'owner');
    member = await createUser(service, 'member');
    outsider = await createUser(service, 'outsider');
  });

  // Each test gets an organization of its own, so it never sees the actions another test adds.
  // Its feed starts with four actions: the owner creates a public and a private repository, and
  // a member with write access opens an issue in each.
  beforeEach(async () => {
    org = await createOrg(service, owner);
    await addToNewTeam(service, owner.token, org.name, member.username, {
      permission: 'write',
      includes_all_repositories: true,
    });
    publicRepo = await createOrgRepo(service, owner.token, org.name);
    privateRepo = await createOrgRepo(service, owner.token, org.name, { private: true });
    await service.request
      .post(`${api}/repos/${org.name}/${publicRepo}/issues`)
      .set(...auth(member.token))
      .send({ title: 'public issue' })
      .expect(201);
    await service.request
      .post(`${api}/repos/${org.name}/${privateRepo}/issues`)
      .set(...auth(member.token))
      .send({ title: 'private issue' })
      .expect(201);
  });

  const repoNames = (body: { repo: { name: string } }[]) =>
    [...new Set(body.map((entry) => entry.repo.name))].sort();

  it('lists the actions newest first with their Gitea op_type, and sets X-Total-Count', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set(...auth(owner.token))
      .expect(200);
    expect(response.body.map((entry: { op_type: string }) => entry.op_type)).toEqual([
      'create_issue',
      'create_issue',
      'create_repo',
      'create_repo',
    ]);
    expect(response.headers['x-total-count']).toBe('4');
    const created = response.body.map((entry: { created: string }) => entry.created);
    expect([...created].sort().reverse()).toEqual(created);
    expect(response.body[0]).toMatchObject({
      user_id: org.id,
      act_user_id: member.id,
      act_user: { login: member.username },
      repo: { full_name: `${org.name}/${privateRepo}` },
      content: '1|private issue',
      is_private: true,
      comment: null,
    });
  });

  it('rule 7: includes private entries for a member', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set(...auth(member.token))
      .expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo, privateRepo].sort());
  });

  it('rule 7: includes private entries for a site administrator', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set('Authorization', adminAuthorization)
      .expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo, privateRepo].sort());
  });

  it('rule 7: leaves out private entries for a signed-in non-member', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set(...auth(outsider.token))
      .expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo]);
    expect(response.body.every((entry: { is_private: boolean }) => !entry.is_private)).toBe(true);
    expect(response.headers['x-total-count']).toBe('2');
  });

  it('rule 7: leaves out private entries for an anonymous caller', async () => {
    const response = await service.request.get(`${api}/orgs/${org.name}/activities/feeds`).expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo]);
  });

  it('rule 7: leaves out private entries for a member using a public-only token', async () => {
    const token = await createToken(service, member, ['read:organization', 'public-only']);
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set(...auth(token))
      .expect(200);
    expect(repoNames(response.body)).toEqual([publicRepo]);
  });

  it('rule 7: narrows the feed to one date', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const todays = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .query({ date: today })
      .set(...auth(owner.token))
      .expect(200);
    expect(todays.body).toHaveLength(4);
    const other = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .query({ date: '2001-02-03' })
      .set(...auth(owner.token))
      .expect(200);
    expect(other.body).toEqual([]);
    expect(other.headers['x-total-count']).toBe('0');
  });

  it('answers 422 for a date that is not YYYY-MM-DD', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .query({ date: '2024-13-45' })
      .expect(422);
    expect(response.body.message).toMatch(/date/);
  });

  it('records close, reopen, pull request and rename actions', async () => {
    const repo = await createOrgRepo(service, owner.token, org.name);
    await service.request
      .post(`${api}/repos/${org.name}/${repo}/issues`)
      .set(...auth(owner.token))
      .send({ title: 'to close' })
      .expect(201);
    await service.request
      .patch(`${api}/repos/${org.name}/${repo}/issues/1`)
      .set(...auth(owner.token))
      .send({ state: 'closed' })
      .expect(201);
    await service.request
      .patch(`${api}/repos/${org.name}/${repo}/issues/1`)
      .set(...auth(owner.token))
      .send({ state: 'open' })
      .expect(201);
    await service.request
      .post(`${api}/repos/${org.name}/${repo}/pulls`)
      .set(...auth(owner.token))
      .send({ title: 'pr', head: 'feature', base: 'main' })
      .expect(201);
    await service.request
      .patch(`${api}/repos/${org.name}/${repo}`)
      .set(...auth(owner.token))
      .send({ name: `${repo}-renamed` })
      .expect(200);
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .query({ limit: 6 })
      .set(...auth(owner.token))
      .expect(200);
    expect(response.body.slice(0, 6).map((entry: { op_type: string }) => entry.op_type)).toEqual([
      'rename_repo',
      'create_pull_request',
      'reopen_issue',
      'close_issue',
      'create_issue',
      'create_repo',
    ]);
    expect(response.body[0].content).toBe(repo);
  });

  it('answers 404 for an organization the caller may not see', async () => {
    const hidden = await createOrg(service, owner, { visibility: 'private' });
    await service.request
      .get(`${api}/orgs/${hidden.name}/activities/feeds`)
      .set(...auth(outsider.token))
      .expect(404);
    await service.request.get(`${api}/orgs/no-such-org/activities/feeds`).expect(404);
  });
});

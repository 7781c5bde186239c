import { useCodeHostingApi } from './app';
import {
  addToTeam,
  adminToken,
  api,
  auth,
  createOrg,
  createOrgRepo,
  createTeam,
  createToken,
  createUser,
  uniqueName,
  type Actor,
} from './actors';

const service = useCodeHostingApi();

let owner: Actor;
let org: string;
beforeAll(async () => {
  owner = await createUser(service, 'owner');
  org = (await createOrg(service, owner)).name;
});

describe('repositories', () => {
  it('POST /user/repos creates a repository owned by the caller', async () => {
    const name = uniqueName('mine');
    const response = await service.request
      .post(`${api}/user/repos`)
      .set(...auth(owner.token))
      .send({ name, description: 'd', private: true })
      .expect(201);
    expect(response.body).toMatchObject({
      name,
      full_name: `${owner.username}/${name}`,
      private: true,
      archived: false,
      description: 'd',
      owner: { login: owner.username },
      permissions: { admin: true, push: true, pull: true },
    });
  });

  it('POST /orgs/{org}/repos answers 403 to a member whose teams may not create repositories', async () => {
    const member = await createUser(service, 'member');
    await addToTeam(
      service,
      owner.token,
      await createTeam(service, owner.token, org, { permission: 'write' }),
      member.username,
    );
    const response = await service.request
      .post(`${api}/orgs/${org}/repos`)
      .set(...auth(member.token))
      .send({ name: 'nope' })
      .expect(403);
    expect(response.body.message).toMatch(/not allowed to create repository/);
  });

  it('POST /orgs/{org}/repos lets a member of a team with can_create_org_repo create one they then administer', async () => {
    const member = await createUser(service, 'creator');
    await addToTeam(
      service,
      owner.token,
      await createTeam(service, owner.token, org, { permission: 'read', can_create_org_repo: true }),
      member.username,
    );
    const repo = await createOrgRepo(service, member.token, org);
    await service.request
      .patch(`${api}/repos/${org}/${repo}`)
      .set(...auth(member.token))
      .send({ description: 'mine' })
      .expect(200);
  });

  it('answers 409 for a repository name already used by the owner, and 422 for an invalid name', async () => {
    const repo = await createOrgRepo(service, owner.token, org);
    await service.request
      .post(`${api}/orgs/${org}/repos`)
      .set(...auth(owner.token))
      .send({ name: repo.toUpperCase() })
      .expect(409);
    await service.request
      .post(`${api}/orgs/${org}/repos`)
      .set(...auth(owner.token))
      .send({ name: 'bad name' })
      .expect(422);
  });

  it("GET /repos/{owner}/{repo} answers each caller's level on a private repository", async () => {
    const repo = await createOrgRepo(service, owner.token, org, { private: true });
    const own = uniqueName('own');
    await service.request
      .post(`${api}/user/repos`)
      .set(...auth(owner.token))
      .send({ name: own, private: true })
      .expect(201);
    const full = { admin: true, push: true, pull: true };
    const cases: [string, string, string, { admin: boolean; push: boolean; pull: boolean } | 404][] = [
      ['organization owner', await createToken(service, owner, ['all']), `${org}/${repo}`, full],
      ['user owner', owner.token, `${owner.username}/${own}`, full],
      ['site administrator', await adminToken(service), `${org}/${repo}`, full],
      [
        'site administrator, public-only',
        await adminToken(service, ['all', 'public-only']),
        `${org}/${repo}`,
        404,
      ],
      [
        'organization owner, public-only',
        await createToken(service, owner, ['all', 'public-only']),
        `${org}/${repo}`,
        404,
      ],
      [
        'user owner, public-only',
        await createToken(service, owner, ['all', 'public-only']),
        `${owner.username}/${own}`,
        404,
      ],
    ];
    for (const [caller, token, path, expected] of cases) {
      const response = await service.request.get(`${api}/repos/${path}`).set(...auth(token));
      const answer = response.status === 200 ? response.body.permissions : response.status;
      expect({ caller, answer }).toEqual({ caller, answer: expected });
    }
  });

  it('hides a private repository (404) from non-members and shows it to collaborators', async () => {
    const repo = await createOrgRepo(service, owner.token, org, { private: true });
    const stranger = await createUser(service, 'stranger');
    await service.request
      .get(`${api}/repos/${org}/${repo}`)
      .set(...auth(stranger.token))
      .expect(404);
    await service.request.get(`${api}/repos/${org}/${repo}`).expect(404);
    await service.request
      .put(`${api}/repos/${org}/${repo}/collaborators/${stranger.username}`)
      .set(...auth(owner.token))
      .send({ permission: 'read' })
      .expect(204);
    const response = await service.request
      .get(`${api}/repos/${org}/${repo}`)
      .set(...auth(stranger.token))
      .expect(200);
    expect(response.body.permissions).toEqual({ admin: false, push: false, pull: true });
  });

  it('PATCH archives a repository; an archived repository refuses new issues with 423', async () => {
    const repo = await createOrgRepo(service, owner.token, org);
    const response = await service.request
      .patch(`${api}/repos/${org}/${repo}`)
      .set(...auth(owner.token))
      .send({ archived: true })
      .expect(200);
    expect(response.body.archived).toBe(true);
    await service.request
      .post(`${api}/repos/${org}/${repo}/issues`)
      .set(...auth(owner.token))
      .send({ title: 't' })
      .expect(423);
    await service.request
      .patch(`${api}/repos/${org}/${repo}`)
      .set(...auth(owner.token))
      .send({ archived: false })
      .expect(200);
    await service.request
      .post(`${api}/repos/${org}/${repo}/issues`)
      .set(...auth(owner.token))
      .send({ title: 't' })
      .expect(201);
  });

  it('PATCH and DELETE answer 403 to a reader', async () => {
    const repo = await createOrgRepo(service, owner.token, org);
    const reader = await createUser(service, 'reader');
    await service.request
      .patch(`${api}/repos/${org}/${repo}`)
      .set(...auth(reader.token))
      .send({ description: 'x' })
      .expect(403);
    await service.request
      .delete(`${api}/repos/${org}/${repo}`)
      .set(...auth(reader.token))
      .expect(403);
  });

  it('making a repository private hides its feed entries from outsiders', async () => {
    const repo = await createOrgRepo(service, owner.token, org);
    const stranger = await createUser(service, 'stranger');
    const before = await service.request
      .get(`${api}/orgs/${org}/activities/feeds`)
      .set(...auth(stranger.token))
      .expect(200);
    expect(before.body.map((entry: { repo: { name: string } }) => entry.repo.name)).toContain(repo);
    await service.request
      .patch(`${api}/repos/${org}/${repo}`)
      .set(...auth(owner.token))
      .send({ private: true })
      .expect(200);
    const after = await service.request
      .get(`${api}/orgs/${org}/activities/feeds`)
      .set(...auth(stranger.token))
      .expect(200);
    expect(after.body.map((entry: { repo: { name: string } }) => entry.repo.name)).not.toContain(repo);
  });
});

describe('issues and pull requests', () => {
  it('numbers issues and pull requests per repository', async () => {
    const first = await createOrgRepo(service, owner.token, org);
    const second = await createOrgRepo(service, owner.token, org);
    const a = await service.request
      .post(`${api}/repos/${org}/${first}/issues`)
      .set(...auth(owner.token))
      .send({ title: 'a', body: 'text' })
      .expect(201);
    const pr = await service.request
      .post(`${api}/repos/${org}/${first}/pulls`)
      .set(...auth(owner.token))
      .send({ title: 'pr', head: 'f', base: 'main' })
      .expect(201);
    const b = await service.request
      .post(`${api}/repos/${org}/${second}/issues`)
      .set(...auth(owner.token))
      .send({ title: 'b' })
      .expect(201);
    expect([a.body.number, pr.body.number, b.body.number]).toEqual([1, 2, 1]);
    expect(a.body).toMatchObject({
      title: 'a',
      body: 'text',
      state: 'open',
      pull_request: null,
      user: { login: owner.username },
    });
    expect(pr.body).toMatchObject({ number: 2, head: { ref: 'f' }, base: { ref: 'main' }, merged: false });
    const asIssue = await service.request.get(`${api}/repos/${org}/${first}/issues/2`).expect(200);
    expect(asIssue.body.pull_request).toMatchObject({ merged: false });
  });

  it('gives concurrent issues distinct, consecutive indexes', async () => {
    const repo = await createOrgRepo(service, owner.token, org);
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        service.request
          .post(`${api}/repos/${org}/${repo}/issues`)
          .set(...auth(owner.token))
          .send({ title: `issue ${n}` })
          .expect(201),
      ),
    );
    expect(created.map((response) => response.body.number as number).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
  });

  it('lists open issues by default, filters by state and type, and pages', async () => {
    const repo = await createOrgRepo(service, owner.token, org);
    for (const title of ['one', 'two', 'three'])
      await service.request
        .post(`${api}/repos/${org}/${repo}/issues`)
        .set(...auth(owner.token))
        .send({ title })
        .expect(201);
    await service.request
      .post(`${api}/repos/${org}/${repo}/pulls`)
      .set(...auth(owner.token))
      .send({ title: 'pr', head: 'f', base: 'main' })
      .expect(201);
    await service.request
      .patch(`${api}/repos/${org}/${repo}/issues/1`)
      .set(...auth(owner.token))
      .send({ state: 'closed' })
      .expect(201);
    const open = await service.request.get(`${api}/repos/${org}/${repo}/issues`).expect(200);
    expect(open.body.map((issue: { number: number }) => issue.number).sort()).toEqual([2, 3, 4]);
    const closed = await service.request.get(`${api}/repos/${org}/${repo}/issues?state=closed`).expect(200);
    expect(
      closed.body.map((issue: { number: number; closed_at: string | null }) => [
        issue.number,
        typeof issue.closed_at,
      ]),
    ).toEqual([[1, 'string']]);
    const pulls = await service.request
      .get(`${api}/repos/${org}/${repo}/issues?type=pulls&state=all`)
      .expect(200);
    expect(pulls.body.map((issue: { number: number }) => issue.number)).toEqual([4]);
    const paged = await service.request
      .get(`${api}/repos/${org}/${repo}/issues?state=all&limit=3`)
      .expect(200);
    expect(paged.body).toHaveLength(3);
    expect(paged.headers['x-total-count']).toBe('4');
    expect(paged.headers['link']).toContain('rel="next"');
  });

  it('lets the poster edit their issue but answers 403 to another reader', async () => {
    const repo = await createOrgRepo(service, owner.token, org);
    const poster = await createUser(service, 'poster');
    const other = await createUser(service, 'other');
    await service.request
      .post(`${api}/repos/${org}/${repo}/issues`)
      .set(...auth(poster.token))
      .send({ title: 'mine' })
      .expect(201);
    const edited = await service.request
      .patch(`${api}/repos/${org}/${repo}/issues/1`)
      .set(...auth(poster.token))
      .send({ title: 'renamed' })
      .expect(201);
    expect(edited.body.title).toBe('renamed');
    await service.request
      .patch(`${api}/repos/${org}/${repo}/issues/1`)
      .set(...auth(other.token))
      .send({ title: 'hijack' })
      .expect(403);
  });

  it('answers 404 for an unknown issue and 401 for an anonymous poster', async () => {
    const repo = await createOrgRepo(service, owner.token, org);
    await service.request.get(`${api}/repos/${org}/${repo}/issues/7`).expect(404);
    await service.request.get(`${api}/repos/${org}/${repo}/issues/abc`).expect(404);
    await service.request.post(`${api}/repos/${org}/${repo}/issues`).send({ title: 'anon' }).expect(401);
  });
});

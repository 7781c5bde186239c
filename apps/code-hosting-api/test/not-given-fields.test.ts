import { useCodeHostingApi } from './app';
import {
  adminAuthorization,
  api,
  auth,
  basic,
  createOrg,
  createOrgRepo,
  createTeam,
  createUser,
} from './actors';
import { createIssue, issueFixture, uploaded } from './attachment-fixtures';

// Gitea clients send every field of their option structs: `null` for an unset pointer, `""` for
// an unset string (the Go SDK's EditOrgOption.Visibility, EditIssueOption.Title,
// EditUserOption.Password). Where Gitea reads those as "not given", so does the service: no 422,
// no stored value changed.

const service = useCodeHostingApi();

describe('"" and null as "not given" in request bodies', () => {
  it('POST /orgs: null for every optional field, "" for visibility', async () => {
    const owner = await createUser(service, 'ng-owner');
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({
        username: 'ng-org',
        full_name: null,
        email: null,
        description: null,
        website: null,
        location: null,
        visibility: null,
        repo_admin_change_team_access: null,
      });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ visibility: 'public', full_name: '', website: '' });
    const blank = await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({ username: 'ng-org-2', visibility: '' });
    expect(blank.status).toBe(201);
    expect(blank.body.visibility).toBe('public');
  });

  it('PATCH /orgs/{org}: visibility "" and null fields change nothing (what the Go SDK sends)', async () => {
    const owner = await createUser(service, 'ng-edit');
    const org = await createOrg(service, owner, {
      full_name: 'Full',
      location: 'Here',
      visibility: 'limited',
      repo_admin_change_team_access: true,
    });
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .send({
        description: 'changed',
        visibility: '',
        full_name: null,
        location: null,
        email: null,
        website: null,
        repo_admin_change_team_access: null,
      });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      description: 'changed',
      visibility: 'limited',
      full_name: 'Full',
      location: 'Here',
      repo_admin_change_team_access: true,
    });
  });

  it('PATCH /admin/users/{username}: password "" and null fields change nothing', async () => {
    const user = await createUser(service, 'ng-user');
    const response = await service.request
      .patch(`${api}/admin/users/${user.username}`)
      .set('Authorization', adminAuthorization)
      .send({
        source_id: 0,
        login_name: '',
        password: '',
        email: null,
        full_name: 'Named',
        visibility: '',
        admin: null,
        active: null,
        allow_create_organization: null,
        description: null,
        website: null,
        location: null,
      });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ full_name: 'Named', visibility: 'public', is_admin: false });
    await service.request
      .get(`${api}/user`)
      .set('Authorization', basic(user.username, user.password))
      .expect(200);
  });

  it('POST /admin/users: visibility null or "" is the default', async () => {
    for (const visibility of [null, '']) {
      const username = `ng-created-${visibility === null ? 'null' : 'blank'}`;
      const response = await service.request
        .post(`${api}/admin/users`)
        .set('Authorization', adminAuthorization)
        .send({
          username,
          email: `${username}@example.com`,
          password: 'a-password',
          full_name: '',
          login_name: '',
          source_id: 0,
          must_change_password: null,
          visibility,
        });
      expect(response.status).toBe(201);
      expect(response.body.visibility).toBe('public');
    }
  });

  it('teams and collaborators: permission "" or null is the default', async () => {
    const owner = await createUser(service, 'ng-team');
    const org = await createOrg(service, owner);
    const team = await service.request
      .post(`${api}/orgs/${org.name}/teams`)
      .set(...auth(owner.token))
      .send({ name: 'blank-permission', description: null, permission: '', units: null, units_map: null });
    expect(team.status).toBe(201);
    await createTeam(service, owner.token, org.name);
    const repo = await createOrgRepo(service, owner.token, org.name);
    const collaborator = await createUser(service, 'ng-collab');
    for (const permission of [null, '']) {
      await service.request
        .put(`${api}/repos/${org.name}/${repo}/collaborators/${collaborator.username}`)
        .set(...auth(owner.token))
        .send({ permission })
        .expect(204);
    }
  });

  it('repositories: null fields on create and edit are not given', async () => {
    const owner = await createUser(service, 'ng-repo');
    const created = await service.request
      .post(`${api}/user/repos`)
      .set(...auth(owner.token))
      .send({
        name: 'ng-repo',
        description: 'kept',
        private: null,
        auto_init: null,
        template: null,
        default_branch: '',
        issue_labels: '',
        gitignores: '',
        license: '',
        readme: '',
        trust_model: '',
        object_format_name: '',
      });
    expect(created.status).toBe(201);
    const edited = await service.request
      .patch(`${api}/repos/${owner.username}/ng-repo`)
      .set(...auth(owner.token))
      .send({ name: null, description: null, website: null, private: null, archived: null });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      name: 'ng-repo',
      description: 'kept',
      private: false,
      archived: false,
    });
  });

  it('PATCH /orgs/{org}: "" for the strings the Go SDK leaves unset changes nothing; email "" clears', async () => {
    const owner = await createUser(service, 'ng-edit-blank');
    const org = await createOrg(service, owner, {
      full_name: 'Full',
      description: 'Described',
      website: 'https://before.example',
      location: 'Here',
      email: 'org@example.com',
    });
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .send({ full_name: '', description: '', website: '', location: '', visibility: '', email: '' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      full_name: 'Full',
      description: 'Described',
      website: 'https://before.example',
      location: 'Here',
      email: '',
    });
  });

  it('issues: null on create; title "" and null body or state on edit change nothing', async () => {
    const fixture = await issueFixture(service);
    const path = `${api}/repos/${fixture.org}/${fixture.repo}/issues`;
    const created = await service.request
      .post(path)
      .set(...auth(fixture.owner.token))
      .send({
        title: 'titled',
        body: null,
        ref: '',
        assignees: null,
        milestone: 0,
        labels: null,
        closed: null,
      });
    expect(created.status).toBe(201);
    await service.request
      .patch(`${path}/${created.body.number}`)
      .set(...auth(fixture.owner.token))
      .send({ body: 'the body' })
      .expect(201);
    const edited = await service.request
      .patch(`${path}/${created.body.number}`)
      .set(...auth(fixture.owner.token))
      .send({ title: '', body: null, state: null, ref: null, milestone: null, due_date: null });
    expect(edited.status).toBe(201);
    expect(edited.body).toMatchObject({ title: 'titled', body: 'the body', state: 'open' });
    const blankState = await service.request
      .patch(`${path}/${created.body.number}`)
      .set(...auth(fixture.owner.token))
      .send({ title: '', body: '', state: '' });
    expect(blankState.status).toBe(201);
    expect(blankState.body).toMatchObject({ body: 'the body', state: 'open' });
  });

  it('pull requests: null fields on create are not given', async () => {
    const fixture = await issueFixture(service);
    const response = await service.request
      .post(`${api}/repos/${fixture.org}/${fixture.repo}/pulls`)
      .set(...auth(fixture.owner.token))
      .send({ head: 'feature', base: 'main', title: 'a change', body: null, assignee: '', labels: null });
    expect(response.status).toBe(201);
  });

  it('attachments: name "" or null on edit keeps the name', async () => {
    const fixture = await issueFixture(service);
    const attachment = await uploaded(service, fixture.assets, fixture.owner.token);
    for (const name of ['', null]) {
      const response = await service.request
        .patch(`${fixture.assets}/${attachment.id}`)
        .set(...auth(fixture.owner.token))
        .send({ name });
      expect(response.status).toBe(201);
      expect(response.body.name).toBe('notes.txt');
    }
  });

  it('tokens: scopes null is scopes not given (Gitea: a token must have a scope)', async () => {
    const user = await createUser(service, 'ng-token');
    const response = await service.request
      .post(`${api}/users/${user.username}/tokens`)
      .set('Authorization', basic(user.username, user.password))
      .send({ name: 'null-scopes', scopes: null });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('access token must have a scope');
  });
});

describe('"" as "not given" in query strings', () => {
  it('issue list: state= and type= are the defaults (open, issues and pulls)', async () => {
    const fixture = await issueFixture(service);
    await createIssue(service, fixture.owner.token, fixture.org, fixture.repo, 'second');
    const response = await service.request
      .get(`${api}/repos/${fixture.org}/${fixture.repo}/issues?state=&type=&page=&limit=`)
      .set(...auth(fixture.owner.token));
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
  });

  it('organization feed: date= is no date filter', async () => {
    const fixture = await issueFixture(service);
    const response = await service.request
      .get(`${api}/orgs/${fixture.org}/activities/feeds?date=`)
      .set(...auth(fixture.owner.token));
    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(0);
  });

  it('attachment upload: name= keeps the uploaded file name', async () => {
    const fixture = await issueFixture(service);
    const response = await service.request
      .post(`${fixture.assets}?name=`)
      .set(...auth(fixture.owner.token))
      .attach('attachment', Buffer.from('text\n'), { filename: 'kept.txt', contentType: 'text/plain' });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe('kept.txt');
  });
});

import { useCodeHostingApi } from './app';
import { adminToken, addToTeam, api, auth, createTeam, createUser, type Actor } from './actors';
import { createIssue, issueFixture, upload, uploaded, type IssueFixture } from './attachment-fixtures';

// Attachment rule 1 (docs/contracts/code-hosting-api.md) over every kind of caller: who may create, edit and delete an issue's attachments.

const service = useCodeHostingApi();

let repo: IssueFixture;
let pullIndex: number;
const callers = new Map<string, string | undefined>();

async function collaborator(permission: 'read' | 'write' | 'admin'): Promise<Actor> {
  const user = await createUser(service, permission);
  await service.request
    .put(`${api}/repos/${repo.org}/${repo.repo}/collaborators/${user.username}`)
    .set(...auth(repo.owner.token))
    .send({ permission })
    .expect(204);
  return user;
}

beforeAll(async () => {
  repo = await issueFixture(service);
  const poster = await createUser(service, 'poster');
  // An outsider on a public repository may open an issue: they are its poster.
  repo.index = await createIssue(service, poster.token, repo.org, repo.repo);
  const pull = await service.request
    .post(`${api}/repos/${repo.org}/${repo.repo}/pulls`)
    .set(...auth(repo.owner.token))
    .send({ title: 'a change', head: 'feature', base: 'main' })
    .expect(201);
  pullIndex = pull.body.number;
  const teamWriter = await createUser(service, 'team-writer');
  const team = await createTeam(service, repo.owner.token, repo.org, {
    permission: 'write',
    includes_all_repositories: true,
  });
  await addToTeam(service, repo.owner.token, team, teamWriter.username);
  callers.set('the issue’s poster', poster.token);
  callers.set('a repository administrator', (await collaborator('admin')).token);
  callers.set('a site administrator', await adminToken(service));
  callers.set('a team writer', teamWriter.token);
  callers.set('a collaborator with write access', (await collaborator('write')).token);
  callers.set('a reader', (await collaborator('read')).token);
  callers.set('an outsider', (await createUser(service, 'outsider')).token);
  callers.set('anonymous', undefined);
});

const assets = (index: number) => `${api}/repos/${repo.org}/${repo.repo}/issues/${index}/assets`;

describe.each([
  ['the issue’s poster', 201],
  ['a repository administrator', 201],
  ['a site administrator', 201],
  ['a team writer', 201],
  ['a collaborator with write access', 201],
  ['a reader', 403],
  ['an outsider', 403],
  ['anonymous', 401],
])('%s', (who, allowed) => {
  it(`creates, edits and deletes an issue’s attachments: ${allowed}`, async () => {
    const token = callers.get(who);
    const created = await upload(service, assets(repo.index), token, Buffer.from('x'), 'a.txt').expect(
      allowed,
    );
    const target =
      allowed === 201 ? created.body : await uploaded(service, assets(repo.index), repo.owner.token);
    const at = `${assets(repo.index)}/${target.id}`;
    const withToken = <T extends { set(name: string, value: string): T }>(request: T): T =>
      token === undefined ? request : request.set(...auth(token));
    await withToken(service.request.patch(at)).send({ name: 'b.txt' }).expect(allowed);
    await withToken(service.request.delete(at)).expect(allowed === 201 ? 204 : allowed);
  });
});

describe('on a pull request', () => {
  it('a writer of pull requests creates, edits and deletes its attachments', async () => {
    const writer = await collaborator('write');
    const created = await uploaded(service, assets(pullIndex), writer.token);
    await service.request
      .patch(`${assets(pullIndex)}/${created.id}`)
      .set(...auth(writer.token))
      .send({ name: 'c.txt' })
      .expect(201);
    await service.request
      .delete(`${assets(pullIndex)}/${created.id}`)
      .set(...auth(writer.token))
      .expect(204);
  });

  it('a reader may not', async () => {
    const reader = await collaborator('read');
    await upload(service, assets(pullIndex), reader.token, Buffer.from('x'), 'a.txt').expect(403);
  });
});

it('a token without the issue scope may read but not write attachments', async () => {
  const owner = repo.owner;
  const readOnly = await service.request
    .post(`${api}/users/${owner.username}/tokens`)
    .set('Authorization', `Basic ${Buffer.from(`${owner.username}:${owner.password}`).toString('base64')}`)
    .send({ name: 'read-issue', scopes: ['read:issue'] })
    .expect(201);
  await service.request
    .get(assets(repo.index))
    .set(...auth(readOnly.body.sha1))
    .expect(200);
  await upload(service, assets(repo.index), readOnly.body.sha1, Buffer.from('x'), 'a.txt').expect(403);
});

/**
 * The bench's baseline (bench/baseline/handlers.ts) answers what the service answers, byte for
 * byte: the bench compares the two on the same requests, so a ratio only means something while
 * this holds. The baseline's SQL runs on this file's own database (PGlite or PostgreSQL).
 */
import { querySource } from '@repo/testing';
import { createBaseline } from '../bench/baseline/handlers';
import {
  adminToken,
  api,
  auth,
  createOrg,
  createOrgRepo,
  createToken,
  createUser,
  type Actor,
} from './actors';
import { createIssue, issueFixture, uploaded } from './attachment-fixtures';
import { testRootUrl, useCodeHostingApi } from './app';
import { addToNewTeam } from './organization-fixtures';

const service = useCodeHostingApi();
let baseline: ReturnType<typeof createBaseline>;
let owner: Actor;
let member: Actor;
let outsider: Actor;
let admin: string;
const orgs: Record<'open' | 'limited' | 'closed', string> = { open: '', limited: '', closed: '' };

beforeAll(async () => {
  baseline = createBaseline({
    query: (sql, parameters) => querySource(service.database, sql, parameters),
    rootUrl: testRootUrl,
  });
  owner = await createUser(service, 'owner');
  member = await createUser(service, 'member');
  outsider = await createUser(service, 'outsider');
  admin = await adminToken(service);
  orgs.open = (await createOrg(service, owner, { full_name: 'Open Org', email: 'open@example.org' })).name;
  orgs.limited = (await createOrg(service, owner, { visibility: 'limited', description: 'limited ✓' })).name;
  orgs.closed = (await createOrg(service, owner, { visibility: 'private' })).name;
  await addToNewTeam(service, owner.token, orgs.closed, member.username, {
    permission: 'write',
    includes_all_repositories: true,
  });
  await addToNewTeam(service, owner.token, orgs.open, member.username, { permission: 'read' });
  for (const org of [orgs.open, orgs.closed]) {
    await createOrgRepo(service, owner.token, org);
    await createOrgRepo(service, owner.token, org, { private: true });
  }
});

async function answers(path: string, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `token ${token}` } : {};
  const response = await fetch(`${service.baseUrl}${path}`, { headers });
  const expected = { status: response.status, body: await response.text() };
  const answer = await baseline({ method: 'GET', url: path, headers, body: Buffer.alloc(0) });
  return { expected, actual: { status: answer.status, body: answer.body } };
}

/** The same write sent to the service and to the baseline. */
async function writeAnswers(method: string, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(token ? { authorization: `token ${token}` } : {}),
  };
  const response = await fetch(`${service.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) });
  const service_ = { status: response.status, body: await response.text() };
  const answer = await baseline({ method, url: path, headers, body: Buffer.from(JSON.stringify(body)) });
  return { service: service_, baseline: { status: answer.status, body: answer.body } };
}

/** An organization's JSON with the fields two creations cannot share (its id and name) masked. */
function maskedOrg(body: string): unknown {
  const org = JSON.parse(body) as Record<string, unknown>;
  return { ...org, id: '<id>', name: '<name>', username: '<name>', avatar_url: '<avatar>' };
}

describe('the bench baseline answers as the service does', () => {
  const callers = () => ({
    owner: owner.token,
    member: member.token,
    outsider: outsider.token,
    admin,
    anonymous: undefined,
  });

  it.each(['owner', 'member', 'outsider', 'admin', 'anonymous'] as const)(
    'GET /orgs/{org} and GET /orgs as %s',
    async (who) => {
      const token = callers()[who];
      for (const org of Object.values(orgs)) {
        const { expected, actual } = await answers(`${api}/orgs/${org}`, token);
        expect(actual).toEqual(expected);
      }
      for (const query of ['', '?limit=2', '?limit=2&page=2', '?limit=50']) {
        const { expected, actual } = await answers(`${api}/orgs${query}`, token);
        expect(actual).toEqual(expected);
      }
    },
  );

  it.each(['owner', 'member', 'outsider', 'admin'] as const)(
    'GET /users/{u}/orgs and permissions as %s',
    async (who) => {
      const token = callers()[who];
      for (const user of [owner, member, outsider]) {
        const { expected, actual } = await answers(`${api}/users/${user.username}/orgs`, token);
        expect(actual).toEqual(expected);
        for (const org of Object.values(orgs)) {
          const permissions = await answers(`${api}/users/${user.username}/orgs/${org}/permissions`, token);
          expect(permissions.actual).toEqual(permissions.expected);
        }
      }
    },
  );

  it.each(['owner', 'member', 'outsider', 'admin', 'anonymous'] as const)(
    'the activity feed as %s',
    async (who) => {
      const token = callers()[who];
      for (const org of Object.values(orgs)) {
        for (const query of ['', '?limit=1&page=2']) {
          const { expected, actual } = await answers(`${api}/orgs/${org}/activities/feeds${query}`, token);
          expect(actual).toEqual(expected);
        }
      }
    },
  );

  it('refuses a bad token the same way', async () => {
    const { expected, actual } = await answers(`${api}/orgs/${orgs.open}`, 'f'.repeat(40));
    expect(actual).toEqual(expected);
  });

  it('answers 404 for an organization that does not exist the same way', async () => {
    const { expected, actual } = await answers(`${api}/orgs/no-such-org`, owner.token);
    expect(actual).toEqual(expected);
  });

  it('POST /orgs: a creation, a taken name, an anonymous caller', async () => {
    const fields = {
      full_name: 'Made Twice',
      description: 'by both',
      website: 'https://x.example.org',
      visibility: 'limited',
    };
    const created = await writeAnswers(
      'POST',
      `${api}/orgs`,
      { username: `svc-made-${Date.now()}`, ...fields },
      member.token,
    );
    expect(created.service.status).toBe(201);
    const made = await baseline({
      method: 'POST',
      url: `${api}/orgs`,
      headers: { authorization: `token ${member.token}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ username: `base-made-${Date.now()}`, ...fields })),
    });
    expect([made.status, maskedOrg(String(made.body))]).toEqual([201, maskedOrg(created.service.body)]);
    // The baseline's organization is one the service reads as its own: the creator owns it.
    const name = (JSON.parse(String(made.body)) as { name: string }).name;
    const permissions = await fetch(
      `${service.baseUrl}${api}/users/${member.username}/orgs/${name}/permissions`,
      {
        headers: { authorization: `token ${member.token}` },
      },
    );
    expect(await permissions.json()).toMatchObject({ is_owner: true });
    for (const [body, token, status] of [
      [{ username: orgs.open }, member.token, 422],
      [{ username: `nobody-${Date.now()}` }, undefined, 401],
    ] as const) {
      // The taken name is tried on the baseline first: the service's answer does not depend on it.
      const answer = await baseline({
        method: 'POST',
        url: `${api}/orgs`,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `token ${token}` } : {}),
        },
        body: Buffer.from(JSON.stringify(body)),
      });
      const response = await fetch(`${service.baseUrl}${api}/orgs`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `token ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: response.status,
        body: await response.text(),
      });
      expect(answer.status).toBe(status);
    }
  });

  it('PATCH /orgs/{org}: by its owner, an admin, a member, an outsider, anonymous; no fields', async () => {
    const cases: [string, Record<string, unknown>, string | undefined, number][] = [
      [orgs.open, { description: 'edited ✓', location: 'Mars' }, owner.token, 200],
      [orgs.limited, { full_name: 'By the admin', visibility: 'public' }, admin, 200],
      [orgs.open, { description: 'not mine' }, member.token, 403],
      [orgs.closed, { description: 'not seen' }, outsider.token, 404],
      [orgs.open, { description: 'anonymous' }, undefined, 401],
      [orgs.open, {}, owner.token, 200],
      ['no-such-org', { description: 'x' }, owner.token, 404],
    ];
    for (const [org, body, token, status] of cases) {
      // The service writes first; the baseline then writes the same again, so both answer alike.
      const { service: expected, baseline: actual } = await writeAnswers(
        'PATCH',
        `${api}/orgs/${org}`,
        body,
        token,
      );
      expect({ org, request: body, ...actual }).toEqual({ org, request: body, ...expected });
      expect({ org, request: body, status: actual.status }).toEqual({ org, request: body, status });
    }
  });
});

describe("the bench baseline renames an issue's attachment as the service does", () => {
  /** PATCH …/assets/{id} to the service, then the same to the baseline: the second finds the first's name. */
  async function renames(path: string, body: unknown, token?: string) {
    const { service: expected, baseline: actual } = await writeAnswers('PATCH', path, body, token);
    return { expected, actual };
  }

  it('for the poster, an owner, a team writer, a collaborator, an admin; refused as the service refuses', async () => {
    const open = await issueFixture(service);
    const closed = await issueFixture(service, { private: true, owner: open.owner });
    const poster = await createUser(service, 'poster');
    const reader = await createUser(service, 'reader');
    const writer = await createUser(service, 'writer');
    const collaborator = await createUser(service, 'collaborator');
    const stranger = await createUser(service, 'stranger');
    await addToNewTeam(service, open.owner.token, open.org, writer.username, {
      permission: 'write',
      includes_all_repositories: true,
    });
    await addToNewTeam(service, open.owner.token, open.org, reader.username, {
      permission: 'read',
      includes_all_repositories: true,
    });
    await service.request
      .put(`${api}/repos/${open.org}/${open.repo}/collaborators/${collaborator.username}`)
      .set(...auth(open.owner.token))
      .send({ permission: 'write' })
      .expect(204);
    // An outsider may open an issue on a public repository, and is then its poster.
    const posted = await createIssue(service, poster.token, open.org, open.repo);
    const postedAssets = `${api}/repos/${open.org}/${open.repo}/issues/${posted}/assets`;
    const ownAttachment = await uploaded(service, postedAssets, poster.token, 'by the poster\n', 'own.txt');
    const openAttachment = await uploaded(service, open.assets, open.owner.token);
    const closedAttachment = await uploaded(service, closed.assets, open.owner.token);
    const archived = await issueFixture(service, { owner: open.owner });
    const archivedAttachment = await uploaded(service, archived.assets, open.owner.token);
    await service.request
      .patch(`${api}/repos/${archived.org}/${archived.repo}`)
      .set(...auth(open.owner.token))
      .send({ archived: true })
      .expect(200);
    // A user's own private repository: its owner writes it, no team involved.
    await service.request
      .post(`${api}/user/repos`)
      .set(...auth(writer.token))
      .send({ name: 'own', private: true })
      .expect(201);
    const personalIndex = await createIssue(service, writer.token, writer.username, 'own');
    const personal = assetsOf({ org: writer.username, repo: 'own' }, personalIndex);
    const personalAttachment = await uploaded(service, personal, writer.token);
    const publicOnly = await createToken(service, writer, ['write:issue', 'public-only']);
    const readOnly = await createToken(service, open.owner, ['read:issue']);

    const at = (assets: string, id: number) => `${assets}/${id}`;
    const cases: [string, string, Record<string, unknown>, string | undefined, number][] = [
      ['poster', at(postedAssets, ownAttachment.id), { name: 'poster.txt' }, poster.token, 201],
      ['owner', at(open.assets, openAttachment.id), { name: 'owner ✓.log' }, open.owner.token, 201],
      ['team writer', at(open.assets, openAttachment.id), { name: 'writer.log' }, writer.token, 201],
      ['collaborator', at(open.assets, openAttachment.id), { name: 'collab.log' }, collaborator.token, 201],
      ['admin', at(closed.assets, closedAttachment.id), { name: 'admin.log' }, admin, 201],
      ['personal owner', at(personal, personalAttachment.id), { name: 'mine.log' }, writer.token, 201],
      ['personal, stranger', at(personal, personalAttachment.id), { name: 'no.log' }, stranger.token, 404],
      ['no name', at(open.assets, openAttachment.id), {}, open.owner.token, 201],
      ['team reader', at(open.assets, openAttachment.id), { name: 'no.log' }, reader.token, 403],
      ['stranger, public', at(open.assets, openAttachment.id), { name: 'no.log' }, stranger.token, 403],
      ['stranger, private', at(closed.assets, closedAttachment.id), { name: 'no.log' }, stranger.token, 404],
      ['public-only token', at(closed.assets, closedAttachment.id), { name: 'no.log' }, publicOnly, 404],
      ['read-only token', at(open.assets, openAttachment.id), { name: 'no.log' }, readOnly, 403],
      ['anonymous', at(open.assets, openAttachment.id), { name: 'no.log' }, undefined, 401],
      ['archived', at(archived.assets, archivedAttachment.id), { name: 'no.log' }, open.owner.token, 423],
      ['not on the issue', at(open.assets, closedAttachment.id), { name: 'no.log' }, open.owner.token, 404],
      [
        'no such issue',
        at(assetsOf(open, 999), openAttachment.id),
        { name: 'no.log' },
        open.owner.token,
        404,
      ],
      [
        'no such repository',
        at(assetsOf({ ...open, repo: 'gone' }, 1), 1),
        { name: 'no.log' },
        open.owner.token,
        404,
      ],
      ['a refused type', at(open.assets, openAttachment.id), { name: 'no.exe' }, open.owner.token, 422],
    ];
    for (const [who, path, body, token, status] of cases) {
      const { expected, actual } = await renames(path, body, token);
      expect({ who, ...actual }).toEqual({ who, ...expected });
      expect({ who, status: actual.status }).toEqual({ who, status });
    }
    // Neither wrote what it refused: the names are the last allowed renames'.
    const names = async (assets: string, token = open.owner.token) =>
      (
        await service.request
          .get(assets)
          .set(...auth(token))
          .expect(200)
      ).body.map((attachment: { name: string }) => attachment.name);
    expect(await names(open.assets)).toEqual(['collab.log']);
    expect(await names(closed.assets)).toEqual(['admin.log']);
    expect(await names(archived.assets)).toEqual([archivedAttachment.name]);
    expect(await names(personal, writer.token)).toEqual(['mine.log']);
  });
});

function assetsOf(fixture: { org: string; repo: string }, index: number): string {
  return `${api}/repos/${fixture.org}/${fixture.repo}/issues/${index}/assets`;
}

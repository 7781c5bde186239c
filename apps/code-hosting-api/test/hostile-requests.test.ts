import fc from 'fast-check';
import { querySource, rawHttp, type RawRequest, type RawResponse } from '@repo/testing';
import { testRootUrl, useCodeHostingApi } from './app';
import {
  adminAuthorization,
  adminToken,
  api,
  basic,
  createOrg,
  createTeam,
  addToTeam,
  createUser,
  type Actor,
} from './actors';
import { issueFixture, uploaded, type IssueFixture } from './attachment-fixtures';

// Thousands of generated requests, valid and hostile, through HTTP against the real app.
// Bounded to about 25 s in `npm test`; FUZZ_RUNS=<n> runs n requests with no time limit.
const service = useCodeHostingApi();

const fuzzRuns = Number(process.env['FUZZ_RUNS'] ?? 0);
const timeLimitMs = fuzzRuns > 0 ? undefined : 25_000;
/** Requests sent whatever the time bound (FUZZ_RUNS, when set, is the exact number). */
const MIN_RUNS = 500;

interface World {
  owner: Actor;
  adminToken: string;
  fixture: IssueFixture;
  teamId: number;
  attachmentId: number;
  attachmentUuid: string;
}

const tally = { requests: 0, serverErrors: 0, refusedByNodeParser: 0, statuses: new Map<number, number>() };

// --- generators ---------------------------------------------------------------------------

const hostileStrings = fc.constantFrom(
  '',
  '%',
  '%ZZ',
  '%FF',
  '%C0%AF',
  '%00',
  '..',
  '.',
  'a%0D%0ASet-Cookie:%20x=1',
  '9223372036854775808',
  '-1',
  '0',
  '1e12',
  'NaN',
  'x'.repeat(5000),
  '%E2%80%AE',
  'api',
  'Owners',
  'null',
);

/** A path segment: a plausible name, a hostile constant, or random text percent-encoded. */
function segment(plausible: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: plausible },
    { weight: 3, arbitrary: hostileStrings },
    { weight: 2, arbitrary: fc.string({ maxLength: 60, unit: 'binary' }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
  );
}

const pagingValue = fc.oneof(
  fc.constantFrom('0', '-1', '1e12', 'NaN', '', '1.5', '99999999999999999999', 'Infinity', '%00', '0x10'),
  fc.integer({ min: -5, max: 100 }).map(String),
);

const query = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom('page', 'limit', 'page[]', 'limit[x]'), pagingValue),
      fc.tuple(
        fc.constantFrom('token', 'access_token', 'sudo', 'name', 'date', 'state', 'type'),
        fc.string(),
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`,
  );

function authorization(world: World): fc.Arbitrary<[string, string][]> {
  const base64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
  return fc.oneof(
    fc.constant([]),
    fc.constant([['Authorization', `token ${world.owner.token}`]]),
    fc.constant([['Authorization', `token ${world.adminToken}`]]),
    fc.string({ maxLength: 50 }).map((garbage) => [['Authorization', `token ${garbage}`]]),
    fc.constantFrom('Bearer', 'Basic', 'Digest', 'token', '').map((scheme) => [['Authorization', scheme]]),
    fc.string({ maxLength: 80, unit: 'binary' }).map((text) => [['Authorization', `Basic ${base64(text)}`]]),
    fc.string({ maxLength: 40 }).map((text) => [['Authorization', `Basic ${text}`]]),
    fc.constant([['Authorization', basic(world.owner.username, 'wrong')]]),
    fc.tuple(fc.constantFrom(world.adminToken, world.owner.token), hostileStrings).map(([token, sudo]) => [
      ['Authorization', `token ${token}`],
      ['Sudo', sudo],
    ]),
    fc.constant([
      ['Authorization', `token ${world.owner.token}`],
      ['Authorization', 'token ffffffffffffffffffffffffffffffffffffffff'],
    ]),
  ) as fc.Arbitrary<[string, string][]>;
}

const jsonText = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        username: fc.oneof(fc.string(), fc.constantFrom('fuzz-org', 'a\u0000b', 'x'.repeat(100_000))),
        name: fc.oneof(fc.string(), fc.constant('a\r\nX-Injected: 1'), fc.integer()),
        new_name: fc.string(),
        full_name: fc.oneof(fc.string(), fc.constant('\u0000')),
        email: fc.string(),
        visibility: fc.constantFrom('public', 'limited', 'private', 'secret', ''),
        permission: fc.constantFrom('read', 'write', 'admin', 'owner', 'none', 1),
        title: fc.oneof(fc.string(), fc.constant('t'.repeat(300_000))),
        body: fc.string(),
        state: fc.constantFrom('open', 'closed', 'merged'),
        private: fc.oneof(fc.boolean(), fc.string()),
        archived: fc.boolean(),
        scopes: fc.array(fc.string(), { maxLength: 3 }),
        password: fc.string(),
        page: fc.oneof(fc.double(), fc.bigInt().map(Number)),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '{',
    '{"username":',
    '[]',
    'null',
    '"x"',
    '1e309',
    '{"username":1e309}',
    '{"__proto__":{"isAdmin":true}}',
    `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    `{"a":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_001)}`,
  ),
);

const jsonBody: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 5, arbitrary: jsonText.map((text) => Buffer.from(text)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(jsonText, fc.uint8Array({ minLength: 1, maxLength: 4 }), fc.nat())
      .map(([text, bytes, at]) => {
        const cut = at % (text.length + 1);
        return Buffer.concat([
          Buffer.from(text.slice(0, cut)),
          Buffer.from(bytes),
          Buffer.from(text.slice(cut)),
        ]);
      }),
  },
);

/** Multipart bodies for the upload: well-formed with hostile names, or broken in one way or another. */
const multipart = fc
  .record({
    boundary: fc.constantFrom('fuzzboundary', 'x', 'a'.repeat(70)),
    field: fc.constantFrom('attachment', 'file', 'Attachment', ''),
    filename: fc.oneof(
      fc.constantFrom(
        'notes.txt',
        'evil.exe',
        'a"b.txt',
        'x\r\ny.txt',
        '../../etc/passwd',
        '\u0000.txt',
        '.txt',
      ),
      fc.string({ maxLength: 40 }),
    ),
    content: fc.oneof(fc.uint8Array({ maxLength: 300 }).map(Buffer.from), fc.constant(Buffer.from('MZ'))),
    shape: fc.constantFrom('ok', 'truncated', 'no-closing', 'two-parts', 'no-boundary', 'wrong-boundary'),
  })
  .map(({ boundary, field, filename, content, shape }) => {
    const part = (name: string) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
          'latin1',
        ),
        content,
        Buffer.from('\r\n'),
      ]);
    let body = Buffer.concat([part(field), Buffer.from(`--${boundary}--\r\n`)]);
    if (shape === 'truncated') body = body.subarray(0, Math.floor(body.length / 2));
    if (shape === 'no-closing') body = part(field);
    if (shape === 'two-parts')
      body = Buffer.concat([part(field), part(field), Buffer.from(`--${boundary}--\r\n`)]);
    const contentType =
      shape === 'no-boundary'
        ? 'multipart/form-data'
        : `multipart/form-data; boundary=${shape === 'wrong-boundary' ? 'other' : boundary}`;
    return { body, contentType };
  });

function request(world: World): fc.Arbitrary<RawRequest> {
  const { fixture, owner } = world;
  const org = segment(fc.constantFrom(fixture.org, owner.username, 'fuzz-org', 'no-such-org'));
  const user = segment(fc.constantFrom(owner.username, 'root', 'nobody'));
  const repo = segment(fc.constantFrom(fixture.repo, 'no-such-repo'));
  const index = segment(fc.constantFrom(String(fixture.index), '1', '2'));
  const id = segment(fc.constantFrom(String(world.teamId), String(world.attachmentId), '1'));
  const paths = fc.oneof(
    fc.tuple(org).map(([o]) => `${api}/orgs/${o}`),
    fc.constant(`${api}/orgs`),
    fc.constant(`${api}/user/orgs`),
    fc.constant(`${api}/user`),
    fc.constant(`${api}/user/repos`),
    fc.constant(`${api}/admin/users`),
    fc.tuple(org).map(([o]) => `${api}/orgs/${o}/rename`),
    fc.tuple(org).map(([o]) => `${api}/orgs/${o}/teams`),
    fc.tuple(org).map(([o]) => `${api}/orgs/${o}/repos`),
    fc.tuple(org).map(([o]) => `${api}/orgs/${o}/activities/feeds`),
    fc.tuple(user).map(([u]) => `${api}/users/${u}`),
    fc.tuple(user).map(([u]) => `${api}/users/${u}/orgs`),
    fc.tuple(user).map(([u]) => `${api}/users/${u}/tokens`),
    fc.tuple(user, id).map(([u, t]) => `${api}/users/${u}/tokens/${t}`),
    fc.tuple(user, org).map(([u, o]) => `${api}/users/${u}/orgs/${o}/permissions`),
    fc.tuple(id, user).map(([t, u]) => `${api}/teams/${t}/members/${u}`),
    fc.tuple(org, repo).map(([o, r]) => `${api}/repos/${o}/${r}`),
    fc.tuple(org, repo, user).map(([o, r, u]) => `${api}/repos/${o}/${r}/collaborators/${u}`),
    fc.tuple(org, repo).map(([o, r]) => `${api}/repos/${o}/${r}/issues`),
    fc.tuple(org, repo).map(([o, r]) => `${api}/repos/${o}/${r}/pulls`),
    fc.tuple(org, repo, index).map(([o, r, i]) => `${api}/repos/${o}/${r}/issues/${i}`),
    fc.tuple(org, repo, index).map(([o, r, i]) => `${api}/repos/${o}/${r}/issues/${i}/assets`),
    fc.tuple(org, repo, index, id).map(([o, r, i, a]) => `${api}/repos/${o}/${r}/issues/${i}/assets/${a}`),
    fc.tuple(segment(fc.constant(world.attachmentUuid))).map(([u]) => `/attachments/${u}`),
    fc.constantFrom('/swagger.v1.json', '/api/swagger', '/api/healthz', '/nowhere', `${api}/%`, '/%', '//'),
  );
  const method = fc.constantFrom('GET', 'GET', 'POST', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS');
  const body = fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: jsonBody.map((b) => ({ body: b, contentType: 'application/json' })) },
    { weight: 2, arbitrary: multipart },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', ''),
          jsonBody,
        )
        .map(([contentType, b]) => ({ body: b, contentType })),
    },
  );
  const extraHeaders = fc.array(
    fc.oneof(
      fc.tuple(
        fc.constantFrom('X-Request-Id', 'Range', 'Accept', 'Content-Encoding', 'X-Forwarded-For'),
        fc.string(),
      ),
      fc.constant(['X-Evil', 'a\r\nSet-Cookie: x=1'] as [string, string]),
      fc.constant(['Content-Encoding', 'gzip'] as [string, string]),
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(method, paths, query, authorization(world), body, extraHeaders)
    .map(([m, path, q, auth, b, extra]) => ({
      method: m,
      path: `${path}${q}`,
      headers: [
        ...auth,
        ...(b && b.contentType !== '' ? [['Content-Type', b.contentType] as [string, string]] : []),
        ...extra.map(([name, value]) => [name, value.replace(/[\r\n]/g, ' ')] as [string, string]),
      ],
      body: b?.body,
    }));
}

// --- assertions ---------------------------------------------------------------------------

const errorShape = { message: expect.any(String), url: `${testRootUrl}api/swagger` };

function check(sent: RawRequest, response: RawResponse): void {
  tally.requests += 1;
  tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
  if (response.status >= 500) tally.serverErrors += 1;
  const summary = { method: sent.method, path: sent.path.slice(0, 200), status: response.status };
  expect({ ...summary, serverError: response.status >= 500 }).toEqual({ ...summary, serverError: false });
  // Node's own HTTP parser refuses some requests (a 400 without a body) before the app sees them.
  if (response.status === 400 && response.body.length === 0 && response.headers['connection'] === 'close') {
    tally.refusedByNodeParser += 1;
    return;
  }
  if (response.status >= 400 && sent.method !== 'HEAD') {
    expect({ ...summary, body: response.json }).toEqual({ ...summary, body: errorShape });
    expect(Object.keys(response.json as object).sort()).toEqual(['message', 'url']);
  }
}

// --- what the data holds afterwards ---------------------------------------------------------

/** Organizations, their teams and team members, counted through the API (as the site admin) and in the tables. */
async function counts(): Promise<{
  organizations: number;
  teams: number;
  organizationRows: number;
  teamRows: number;
  teamMemberRows: number;
}> {
  const names: string[] = [];
  for (let page = 1; ; page += 1) {
    const response = await service.request
      .get(`${api}/admin/orgs`)
      .query({ page, limit: 50 })
      .set('Authorization', adminAuthorization)
      .expect(200);
    const items = response.body as { username: string }[];
    names.push(...items.map((org) => org.username));
    if (items.length < 50) break;
  }
  let teams = 0;
  for (const name of names) {
    const response = await service.request
      .get(`${api}/orgs/${encodeURIComponent(name)}/teams`)
      .query({ limit: 1 })
      .set('Authorization', adminAuthorization)
      .expect(200);
    teams += Number(response.headers['x-total-count']);
  }
  const [rows] = await querySource<{ organizations: number; teams: number; members: number }>(
    service.database,
    `SELECT (SELECT count(*)::int FROM accounts WHERE type = 'organization') AS organizations,
            (SELECT count(*)::int FROM teams) AS teams,
            (SELECT count(*)::int FROM team_members) AS members`,
  );
  return {
    organizations: names.length,
    teams,
    organizationRows: rows!.organizations,
    teamRows: rows!.teams,
    teamMemberRows: rows!.members,
  };
}

/** After the fuzz: attachments have their objects, organizations their owners, and the API shows every row. */
async function expectWholeAfterFuzz(): Promise<void> {
  // Every attachment row names an object the storage holds.
  const rows = await querySource<{ uuid: string }>(service.database, 'SELECT uuid FROM attachments');
  const missing = [];
  for (const { uuid } of rows) if (!(await service.storage.stat(uuid))) missing.push(uuid);
  expect(missing).toEqual([]);
  // Every organization has its Owners team with at least one member.
  expect(
    await querySource(
      service.database,
      `SELECT a.name FROM accounts a WHERE a.type = 'organization' AND NOT EXISTS (
         SELECT 1 FROM teams t JOIN team_members m ON m.team_id = t.id
         WHERE t.org_id = a.id AND t.permission = 'owner')`,
    ),
  ).toEqual([]);
  // What the API lists is what the tables hold: none hidden, none left behind by a delete.
  const counted = await counts();
  expect({ organizations: counted.organizations, teams: counted.teams }).toEqual({
    organizations: counted.organizationRows,
    teams: counted.teamRows,
  });
}

describe('hostile requests (fast-check, through HTTP)', () => {
  let world: World;
  beforeAll(async () => {
    const owner = await createUser(service, 'owner');
    const fixture = await issueFixture(service, { owner });
    const teamId = await createTeam(service, owner.token, fixture.org, { permission: 'write' });
    await addToTeam(service, owner.token, teamId, (await createUser(service, 'member')).username);
    const attachment = await uploaded(service, fixture.assets, owner.token);
    world = {
      owner,
      adminToken: await adminToken(service),
      fixture,
      teamId,
      attachmentId: attachment.id,
      attachmentUuid: attachment.uuid,
    };
    await createOrg(service, owner, { username: 'fuzz-org' });
  });

  afterAll(() => {
    const statuses = [...tally.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    console.info(
      `hostile requests: ${tally.requests} sent, ${tally.serverErrors} answered 5xx, ` +
        `${tally.refusedByNodeParser} refused by Node's HTTP parser; statuses ${statuses.join(' ')}`,
    );
  });

  it('no request gets a 5xx, every error has Gitea’s body, and the process keeps answering', async () => {
    const property = fc.asyncProperty(request(world), async (sent) => {
      check(sent, await rawHttp(service.baseUrl, sent));
    });
    // A floor of requests however slow the machine (a time bound alone sent 498 on a loaded CI
    // machine), then more for as long as the time bound allows.
    const floor = fuzzRuns > 0 ? fuzzRuns : MIN_RUNS;
    await fc.assert(property, { numRuns: floor, endOnFailure: true });
    if (fuzzRuns === 0) {
      await fc.assert(property, {
        numRuns: 100_000,
        interruptAfterTimeLimit: timeLimitMs,
        markInterruptAsFailure: false,
        endOnFailure: true,
      });
    }
    expect(tally.requests).toBeGreaterThanOrEqual(floor);
    await service.request.get('/livez').expect(200);
    await service.request.get('/readyz').expect(200);
    await expectWholeAfterFuzz();
  }, 600_000);

  it('deletes an organization with its teams and their members, and nothing else, counted through the API and in the tables', async () => {
    const owner = await createUser(service, 'doomed-owner');
    const org = await createOrg(service, owner);
    const teamId = await createTeam(service, owner.token, org.name, { permission: 'write' });
    await addToTeam(service, owner.token, teamId, (await createUser(service, 'doomed-member')).username);
    const before = await counts();
    await service.request
      .delete(`${api}/orgs/${org.name}`)
      .set('Authorization', `token ${owner.token}`)
      .expect(204);
    // The organization, its Owners team and the team made here; the owner in Owners and the member.
    expect(await counts()).toEqual({
      organizations: before.organizations - 1,
      teams: before.teams - 2,
      organizationRows: before.organizationRows - 1,
      teamRows: before.teamRows - 2,
      teamMemberRows: before.teamMemberRows - 2,
    });
    await service.request.get(`${api}/orgs/${org.name}`).set('Authorization', adminAuthorization).expect(404);
  });
});

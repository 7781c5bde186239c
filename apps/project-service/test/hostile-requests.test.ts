import net from 'node:net';
import { generateRsaKeyPair, querySource, signTestToken } from '@repo/testing';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import type { AuthConfig } from '../src/auth/auth-config';
import { useProjectService } from './app';
import { mutated, seeds } from './body-mutations';
import { clientDecode, clientEncode } from './wire-formats';

// Thousands of generated requests, valid and hostile, through HTTP against the real app: every
// operation, every body format, broken paths, queries, tokens and headers. Whatever arrives, the
// answer is below 500, an error has the documented body {code, message} with code = status (in the
// format asked for), the process keeps answering, and the data keeps its invariants.
// Bounded to about 25 s; FUZZ_RUNS sets the number of requests instead (no time bound).
const FUZZ_RUNS = process.env.FUZZ_RUNS === undefined ? undefined : Number(process.env.FUZZ_RUNS);
const RUNS = FUZZ_RUNS ?? 4000;
const TIME_LIMIT_MS = FUZZ_RUNS === undefined ? 25_000 : undefined;
/** Requests fuzzed whatever the time bound (the bound only limits those past it). */
const MIN_RUNS = 400;
jest.setTimeout(FUZZ_RUNS === undefined ? 120_000 : Math.max(120_000, FUZZ_RUNS * 200));

const AUDIENCE = 'project-service';
const ISSUER = 'https://auth.example.test/';
const ADMIN = 'fuzz-admin';
const rsa = generateRsaKeyPair();
const otherRsa = generateRsaKeyPair();
const auth: AuthConfig = {
  key: { kind: 'public-key', publicKeyPem: rsa.publicKey },
  audience: AUDIENCE,
  issuer: ISSUER,
  adminPrincipals: [ADMIN],
  adminGroup: 'fuzz-admins',
};
const service = useProjectService(auth);

const signed = (claims: Record<string, unknown>, options: jwt.SignOptions = {}) =>
  signTestToken(
    { aud: AUDIENCE, iss: ISSUER, ...claims },
    { algorithm: 'RS256', privateKey: rsa.privateKey },
    options,
  );
const adminToken = () => signed({ principal: ADMIN });
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Authorization headers: valid callers and every way of forging or breaking a token. */
const authorizationArb = fc.oneof(
  { weight: 14, arbitrary: fc.constant('admin').map(() => `Bearer ${adminToken()}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('alice', 'bob').map((who) => `Bearer ${signed({ principal: who })}`),
  },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        // alg none
        () =>
          `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ principal: ADMIN, aud: AUDIENCE, iss: ISSUER })}.`,
        // HS256 with the public key as its secret (algorithm confusion)
        () =>
          `Bearer ${jwt.sign({ principal: ADMIN, aud: AUDIENCE, iss: ISSUER }, rsa.publicKey, { algorithm: 'HS256' })}`,
        () => `Bearer ${signed({ principal: ADMIN }, { expiresIn: -60 })}`,
        () => `Bearer ${signed({ principal: ADMIN, aud: 'another-service' })}`,
        () => `Bearer ${signed({ principal: ADMIN, iss: 'https://evil.example/' })}`,
        () => `Bearer ${signed({ principal: ADMIN, nbf: Math.floor(Date.now() / 1000) + 3600 })}`,
        () => `Bearer ${signed({ aud: AUDIENCE })}`,
        () => `Bearer ${signed({ principal: 12345 })}`,
        () =>
          `Bearer ${signTestToken({ principal: ADMIN, aud: AUDIENCE, iss: ISSUER }, { algorithm: 'RS256', privateKey: otherRsa.privateKey })}`,
        () => `Bearer ${adminToken().slice(0, -5)}`,
        () => `Bearer ${adminToken().split('.').slice(0, 2).join('.')}`,
        () => `Bearer ${adminToken()}.extra`,
        () => 'Bearer',
        () => 'Bearer ',
        () => 'Basic YWRtaW46YWRtaW4=',
        () => `Bearer ${'a'.repeat(8000)}`,
        () => `Bearer ${base64url({ alg: 'RS256' })}.${'%%%'}.${'!!!'}`,
        () => 'Bearer null',
      )
      .map((make) => make()),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => text.replace(/[^\x20-\x7e]/g, '')) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Values a query parameter may carry, from plausible to hostile. */
const queryValueArb = fc.oneof(
  fc.constantFrom(
    '1',
    '2',
    '',
    '0',
    '-1',
    '1e9',
    '1000',
    '1001',
    'NaN',
    'Infinity',
    '1.5',
    '0x10',
    ' 1',
    '+1',
  ),
  fc.constantFrom('99999999999999999999999999', '-0', 'true', 'false', 'null', '[]', 'Active', 'Sandbox'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.uuid(),
  fc.constant('x'.repeat(3000)),
  // Forged page tokens: well-formed cursors with hostile names, and plain garbage.
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 30 }), fc.oneof(fc.uuid(), fc.string()))
    .map(([name, uid]) => Buffer.from(JSON.stringify([name, uid])).toString('base64url')),
  fc.constantFrom(
    base64url(['\u0000', '00000000-0000-4000-8000-000000000000']),
    base64url(['a', '00000000-0000-4000-8000-000000000000', 'extra']),
    base64url({ name: 'a', uid: '00000000-0000-4000-8000-000000000000' }),
    base64url([null, null]),
    '====',
  ),
  fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
);
const queryKeyArb = fc.constantFrom(
  'v',
  'page_size',
  'page_token',
  'parent_uid',
  'slug',
  'stage',
  'category',
  'public',
  'access_token',
  'page_size[]',
  '__proto__',
  'constructor',
);
/** A query string, keys repeated at times; values encoded, or sent raw (stray %, &, =, #). */
const queryArb = fc
  .array(fc.tuple(queryKeyArb, queryValueArb, fc.boolean()), { maxLength: 4 })
  .map((pairs) =>
    pairs
      .map(([key, value, raw]) => `${key}=${raw ? value.replace(/[#\s]/g, '') : encodeURIComponent(value)}`)
      .join('&'),
  );

/** The known projects, filled before the run (the fuzz reaches real rows, not only missing ones). */
const known: string[] = [];
let pageToken = '';
const uidArb = fc.oneof(
  { weight: 5, arbitrary: fc.nat().map((index) => known[index % known.length]!) },
  { weight: 1, arbitrary: fc.uuid() },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'not-a-uuid',
      '%ZZ',
      '%',
      '%C0%AF',
      '%FF%FE',
      '%00',
      'ROOT',
      '00000000-0000-0000-0000-000000000000',
      'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
      'a'.repeat(4000),
      '%F0%9F%98%80',
      '..%2F..%2Fetc%2Fpasswd',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent) },
);

const member = fc.record(
  {
    username: fc.oneof(fc.constantFrom('alice', 'bob', 'carol'), fc.string({ maxLength: 20 })),
    name: fc.string({ maxLength: 20 }),
    email: fc.oneof(fc.constant(''), fc.emailAddress(), fc.string({ maxLength: 10 })),
    avatar: fc.oneof(fc.constant(''), fc.webUrl(), fc.string({ maxLength: 10 })),
  },
  { requiredKeys: [] },
);
/** A field value of the right type or of a hostile one. */
const hostileValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\uD800',
    '<x>&amp;</x>',
    ']]>',
    '\r\n',
    "'; DROP TABLE projects; --",
  ),
  fc.constantFrom(Number.MAX_VALUE, -1, 2 ** 64, Number.MAX_SAFE_INTEGER + 2, -0, 0.1),
  fc.constantFrom(null, true, false, [], {}, [[[]]], { $gt: '' }),
  fc.constant('y'.repeat(10_000)),
);
/** Mostly a plausible value, at times a hostile one. */
const mostly = <Value>(plausible: fc.Arbitrary<Value>) =>
  fc.oneof({ weight: 12, arbitrary: plausible }, { weight: 1, arbitrary: hostileValue });

/** A JSON request body: mostly plausible projects, fields at times replaced by hostile values. */
const projectBodyArb = fc
  .record(
    {
      slug: mostly(
        fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}[a-z0-9]$/), fc.constantFrom('root', 'fuzz-a')),
      ),
      name: mostly(fc.string({ minLength: 1, maxLength: 30 })),
      description: mostly(fc.string({ maxLength: 60 })),
      parent_uid: mostly(fc.oneof(uidArb.map(decodeURIComponentSafely), fc.constant(''))),
      public: mostly(fc.boolean()),
      stage: mostly(fc.constantFrom('Active', 'Prospect', '')),
      funding_model: mostly(fc.subarray(['Crowdfunding', 'Membership', 'Alternate Funding', 'Membership'])),
      website_url: mostly(fc.oneof(fc.webUrl(), fc.constant(''))),
      formation_date: mostly(fc.constantFrom('2021-02-28', '2021-02-30', '99999-01-01', '')),
      writers: mostly(fc.oneof(fc.array(member, { maxLength: 4 }), fc.constant([{ username: 'u' }]))),
      auditors: fc.array(member, { maxLength: 3 }),
      mission_statement: mostly(fc.string({ maxLength: 60 })),
      unknown_field: mostly(fc.string({ maxLength: 5 })),
    },
    { requiredKeys: [] },
  )
  .map((body) => Buffer.from(JSON.stringify(body)));

function decodeURIComponentSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** Raw bodies: malformed JSON, huge strings, deep nesting, NUL and invalid UTF-8, mutated XML and gob. */
const rawBodyArb = fc.oneof(
  { weight: 6, arbitrary: projectBodyArb },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        '',
        '{',
        '{"slug":',
        'null',
        '[]',
        '"string"',
        '123',
        '{"__proto__":{"admin":true},"slug":"x"}',
        deepJson(50_000),
        `{"a":${deepJson(10_000)}}`,
        `{"description":"${'z'.repeat(1_100_000)}"}`,
        `{"description":"${'z'.repeat(900_000)}"}`,
        '{"name":"a\\u0000b","slug":"nul-name","description":"d"}',
        '\uFEFF{"slug":"bom"}',
        '{"slug":"dup","slug":"dup2"}',
        // Numbers JSON.stringify cannot write: overflowing, huge, negative, where strings belong.
        '{"slug":1e400,"name":-1e400,"description":123456789012345678901234567890,"public":-0}',
        '{"writers":1e999,"funding_model":[1e308,-1]}',
      )
      .map((text) => Buffer.from(text)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(projectBodyArb, fc.nat(), fc.integer({ min: 0x80, max: 0xff }))
      .map(([body, at, byte]) => {
        const copy = Buffer.from(body);
        copy[at % copy.length] = byte;
        return copy;
      }),
  },
  { weight: 3, arbitrary: mutated(seeds('xml')) },
  { weight: 3, arbitrary: mutated(seeds('gob')) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>',
        `<x>${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</x>`,
        `<x>${'<writers><username>u</username></writers>'.repeat(6000)}</x>`,
        '<x><name>\u0000</name></x>',
      )
      .map((text) => Buffer.from(text)),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
);

const contentTypeArb = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/xml',
  'text/xml',
  'application/gob',
  'application/x-gob',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/json, application/xml',
  '',
  undefined,
);
const acceptArb = fc.constantFrom(
  undefined,
  undefined,
  undefined,
  'application/json',
  'application/xml',
  'application/xml',
  'application/gob',
  'application/gob',
  'text/html',
  '*/*',
  'application/xml;q=0.5, application/gob;q=0.9',
  'application/json;q=0',
  'application/*;q=abc',
);
const extraHeadersArb = fc.record(
  {
    'If-Match': fc.oneof(
      fc.constantFrom('*', '"b1"', 'b1', '"s1"', 'W/"b1"', '"b1", "b2"', ''),
      fc.string({ maxLength: 1500 }),
    ),
    'If-None-Match': fc.constantFrom('*', '"b1"', '"s1"', 'garbage'),
    'X-Sync': fc.constantFrom('true', 'false', 'yes', ''),
    'X-Request-Id': fc.oneof(fc.string({ maxLength: 200 }), fc.constant('a'.repeat(129))),
    'Content-Length-Junk': fc.string({ maxLength: 10 }),
  },
  { requiredKeys: [] },
);

const operationArb = fc.constantFrom(
  { method: 'GET', path: () => '/projects' },
  { method: 'POST', path: () => '/projects' },
  { method: 'GET', path: (uid: string) => `/projects/${uid}` },
  { method: 'PUT', path: (uid: string) => `/projects/${uid}` },
  { method: 'DELETE', path: (uid: string) => `/projects/${uid}` },
  { method: 'GET', path: (uid: string) => `/projects/${uid}/settings` },
  { method: 'PUT', path: (uid: string) => `/projects/${uid}/settings` },
  { method: 'PATCH', path: (uid: string) => `/projects/${uid}` },
  { method: 'GET', path: (uid: string) => `/projects/${uid}/settings/extra` },
);

const requestArb = fc.record({
  operation: operationArb,
  uid: uidArb,
  query: queryArb,
  authorization: authorizationArb,
  contentType: contentTypeArb,
  accept: acceptArb,
  headers: extraHeadersArb,
  body: rawBodyArb,
});
type FuzzRequest = typeof requestArb extends fc.Arbitrary<infer Value> ? Value : never;

/** Header values the HTTP client can put on the wire (no control characters). */
const sendable = (value: string) => value.replace(/[^\x20-\x7e\t]/g, '');

const statuses = new Map<number, number>();
const lastEtags = new Map<string, string>();
let requests = 0;
/** Projects the fuzz's requests were told they created (201) and deleted (204). */
let created = 0;
let deleted = 0;
let parserRejections = 0;

/** The error body, decoded in the format the response says it is in. */
function errorBodyOf(contentType: string, body: Buffer): unknown {
  if (contentType.startsWith('application/json')) return JSON.parse(body.toString('utf8'));
  if (contentType.startsWith('application/xml')) return clientDecode('Error', 'xml', body);
  if (contentType.startsWith('application/gob')) return clientDecode('Error', 'gob', body);
  throw new Error(`error body in an undocumented Content-Type: ${contentType}`);
}

async function send(request: FuzzRequest) {
  const { operation, uid, query, authorization, contentType, accept, headers, body } = request;
  const path = operation.path(uid) + (query ? `?${query}` : '');
  const sent: Record<string, string> = {};
  if (authorization !== undefined) sent['Authorization'] = sendable(authorization);
  if (contentType !== undefined) sent['Content-Type'] = contentType;
  if (accept !== undefined) sent['Accept'] = accept;
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) sent[name] = sendable(value);
  }
  const hasBody = operation.method === 'POST' || operation.method === 'PUT' || operation.method === 'PATCH';
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: operation.method,
    headers: sent,
    body: hasBody ? body : undefined,
  }).catch((error: Error & { cause?: Error & { code?: string } }) => {
    // undici's "fetch failed" says why only in its cause (a reset, a closed socket, a bad answer).
    const cause = error.cause;
    throw new Error(
      `${operation.method} ${path.slice(0, 120)}: ${error.message}: ${cause?.code ?? ''} ${cause?.message ?? ''}`,
    );
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  requests += 1;
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  if (operation.method === 'POST' && response.status === 201) created += 1;
  if (operation.method === 'DELETE' && response.status === 204) deleted += 1;
  return { status: response.status, headers: response.headers, body: bytes, path, method: operation.method };
}

function checkResponse(response: Awaited<ReturnType<typeof send>>): void {
  const where = `${response.method} ${response.path.slice(0, 120)} → ${response.status}`;
  if (response.status >= 500) throw new Error(`${where}: ${response.body.toString('utf8').slice(0, 300)}`);
  // Node's HTTP parser answers requests the app never sees (headers over 16 KB: 431; unparseable: 400)
  // with a bare status; the server, not the app, would have to give those a body (clientError).
  const parserRejected =
    (response.status === 431 || response.status === 400) &&
    response.headers.get('content-type') === null &&
    response.body.length === 0;
  if (parserRejected) parserRejections += 1;
  if (response.status >= 400 && !parserRejected) {
    const decoded = errorBodyOf(response.headers.get('content-type') ?? '', response.body) as Record<
      string,
      unknown
    >;
    expect({ where, code: decoded['code'], message: typeof decoded['message'] }).toEqual({
      where,
      code: String(response.status),
      message: 'string',
    });
    if (response.status === 405) expect(response.headers.get('allow')).toBeTruthy();
    if (response.status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  }
  // A write that succeeded carries a new ETag: never one this representation had before.
  const etag = response.headers.get('etag');
  if (response.status === 200 && response.method === 'PUT' && etag) {
    const key = `${response.path.split('?')[0]}`;
    expect({ where, etag }).not.toEqual({ where, etag: lastEtags.get(key) });
    lastEtags.set(key, etag);
  }
}

/** What there is, counted twice: through the API (as the admin sees it) and in the tables. */
interface Counts {
  /** Projects the admin's list shows, every page. */
  listed: number;
  /** Writers, auditors and meeting coordinators the settings of those projects show. */
  members: number;
  projectRows: number;
  memberRows: number;
}

async function counts(): Promise<Counts> {
  const admin = `Bearer ${adminToken()}`;
  const uids: string[] = [];
  let token: string | undefined;
  do {
    const page = await service.request
      .get('/projects')
      .query({ page_size: 100, ...(token ? { page_token: token } : {}) })
      .set('Authorization', admin)
      .expect(200);
    const body = page.body as { projects: { uid: string }[]; next_page_token?: string };
    uids.push(...body.projects.map((project) => project.uid));
    token = body.next_page_token || undefined;
  } while (token);
  let members = 0;
  for (const uid of uids) {
    const settings = (
      await service.request.get(`/projects/${uid}/settings`).set('Authorization', admin).expect(200)
    ).body as Partial<Record<'writers' | 'auditors' | 'meeting_coordinators', unknown[]>>;
    members +=
      (settings.writers?.length ?? 0) +
      (settings.auditors?.length ?? 0) +
      (settings.meeting_coordinators?.length ?? 0);
  }
  const [rows] = await querySource<{ projects: number; members: number }>(
    service.database,
    'SELECT (SELECT count(*)::int FROM projects) AS projects, (SELECT count(*)::int FROM project_members) AS members',
  );
  return { listed: uids.length, members, projectRows: rows!.projects, memberRows: rows!.members };
}

beforeAll(async () => {
  const admin = `Bearer ${adminToken()}`;
  const list = await service.request
    .get('/projects')
    .query({ slug: 'root' })
    .set('Authorization', admin)
    .expect(200);
  const root = (list.body as { projects: { uid: string }[] }).projects[0]!.uid;
  known.push(root);
  // A small tree: root → a → b, and c beside a; alice writes a.
  let parent = root;
  for (const slug of ['fuzz-a', 'fuzz-b']) {
    const created = await service.request
      .post('/projects')
      .set('Authorization', admin)
      .send({ slug, name: slug, description: 'd', parent_uid: parent, writers: [{ username: 'alice' }] })
      .expect(201);
    parent = (created.body as { uid: string }).uid;
    known.push(parent);
  }
  const c = await service.request
    .post('/projects')
    .set('Authorization', admin)
    .send({ slug: 'fuzz-c', name: 'c', description: 'd', parent_uid: root, public: true })
    .expect(201);
  known.push((c.body as { uid: string }).uid);
  const page = await service.request
    .get('/projects')
    .query({ page_size: 1 })
    .set('Authorization', admin)
    .expect(200);
  pageToken = (page.body as { next_page_token: string }).next_page_token;
});

/**
 * After the fuzz: the process answers, the tree and the settings are whole, every project the fuzz
 * created or deleted is counted as such through the API and in the tables, and writes still work.
 */
async function expectWholeAfterFuzz(before: Counts): Promise<void> {
  await service.request.get('/livez').expect(200);
  const admin = `Bearer ${adminToken()}`;
  const list = await service.request.get('/projects').set('Authorization', admin).expect(200);
  const projects = (list.body as { projects: { uid: string; parent_uid?: string }[] }).projects;
  const byUid = new Map(projects.map((project) => [project.uid, project]));
  // Exactly one root (no parent_uid); every other project's parent exists; walking up always reaches the root.
  expect(projects.filter((project) => project.parent_uid === undefined)).toHaveLength(1);
  for (const project of projects) {
    const seen = new Set<string>();
    let current = project;
    while (current.parent_uid !== undefined) {
      expect(seen.has(current.uid)).toBe(false);
      seen.add(current.uid);
      const parent = byUid.get(current.parent_uid);
      expect({ child: current.uid, parentFound: parent !== undefined }).toEqual({
        child: current.uid,
        parentFound: true,
      });
      current = parent!;
    }
  }
  // Every project has its settings.
  for (const project of projects) {
    await service.request.get(`/projects/${project.uid}/settings`).set('Authorization', admin).expect(200);
  }
  // Counted through the API and in the tables: what the answers said was created or deleted was.
  const counted = await counts();
  const expected = before.listed + created - deleted;
  expect({ listed: counted.listed, projectRows: counted.projectRows }).toEqual({
    listed: expected,
    projectRows: expected,
  });
  // The member rows are the members the settings show, no more (none left behind by a delete).
  expect(counted.memberRows).toBe(counted.members);
  // Every write still changes the ETag.
  const target = (
    await service.request
      .post('/projects')
      .set('Authorization', admin)
      .send({ slug: 'after-the-fuzz', name: 'n', description: 'd', parent_uid: known[0] })
      .expect(201)
  ).body as { uid: string };
  const read = await service.request
    .get(`/projects/${target.uid}/settings`)
    .set('Authorization', admin)
    .expect(200);
  const written = await service.request
    .put(`/projects/${target.uid}/settings`)
    .set('Authorization', admin)
    .send({ mission_statement: 'after the fuzz' })
    .expect(200);
  expect(written.headers['etag']).not.toBe(read.headers['etag']);
  // The formats still round-trip.
  const xml = clientEncode('UpdateProjectSettingsRequest', 'xml', {
    mission_statement: 'xml after the fuzz',
  });
  await service.request
    .put(`/projects/${target.uid}/settings`)
    .set('Authorization', admin)
    .set('Content-Type', 'application/xml')
    .send(xml)
    .expect(200);
}

describe('hostile requests through HTTP', () => {
  it('answers every generated request below 500, errors with the documented body, and keeps the data whole', async () => {
    const before = await counts();
    const property = fc.asyncProperty(requestArb, async (request) => {
      checkResponse(await send(request));
    });
    // A floor of requests however slow the machine, then more for as long as the time bound allows.
    const floor = Math.min(MIN_RUNS, RUNS);
    await fc.assert(property, { numRuns: floor });
    if (RUNS > floor) {
      await fc.assert(property, {
        numRuns: RUNS - floor,
        ...(TIME_LIMIT_MS === undefined
          ? {}
          : { interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false }),
      });
    }
    const summary = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
    console.log(
      `hostile-requests: ${requests} requests fuzzed, statuses ${JSON.stringify(summary)}, ` +
        `${parserRejections} refused by Node's HTTP parser before the app`,
    );
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    expect(requests).toBeGreaterThanOrEqual(Math.min(MIN_RUNS, RUNS));
    // The generators reach the operations, not only the front door.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(401) ?? 0).toBeGreaterThan(0);
    await expectWholeAfterFuzz(before);
  });

  it('answers truncated and forged copies of a real page token with 400', async () => {
    const admin = `Bearer ${adminToken()}`;
    for (const token of [
      pageToken.slice(0, -3),
      pageToken.slice(1),
      `${pageToken}A`,
      pageToken.toUpperCase(),
    ]) {
      const response = await service.request
        .get('/projects')
        .query({ page_token: token })
        .set('Authorization', admin);
      expect([200, 400]).toContain(response.status);
      expect(response.status === 200 ? '200' : response.body.code).toBe(String(response.status));
    }
  });

  it('treats header injection and malformed requests on a raw socket as client errors', async () => {
    const { port } = new URL(service.baseUrl);
    const token = adminToken();
    const raw = [
      // A CR without LF inside a header value, an obs-folded header, a request id with CRLF encoded.
      `GET /projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Request-Id: a\rSet-Cookie: x=1\r\n\r\n`,
      `GET /projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Request-Id: a\r\n b\r\n\r\n`,
      `GET /projects?x=%0d%0aSet-Cookie:%20a=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`,
      // Request smuggling shapes: both Content-Length and Transfer-Encoding, two Content-Lengths.
      `POST /projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      `POST /projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\n{}{}`,
      // A header name with a space, a NUL in a value, a request line with spaces in the path.
      `GET /projects HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`,
      `GET /projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \u0000${token}\r\n\r\n`,
      `GET /projects/a b HTTP/1.1\r\nHost: x\r\n\r\n`,
    ];
    for (const request of raw) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        let received = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => {
          received += chunk;
        });
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
        socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
        // Written, not half-closed: Node aborts a request whose client ends its side first.
        socket.write(request.replace('\r\n', '\r\nConnection: close\r\n'), 'latin1');
      });
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
      expect({ request: request.slice(0, 60), status: status < 500 }).toEqual({
        request: request.slice(0, 60),
        status: true,
      });
      // Nothing a client sent becomes a header of the answer.
      expect(answer.toLowerCase()).not.toMatch(/\r\nset-cookie:/);
    }
  });

  it('deletes a project and its member rows, and nothing else, counted through the API and in the tables', async () => {
    const admin = `Bearer ${adminToken()}`;
    const doomed = (
      await service.request
        .post('/projects')
        .set('Authorization', admin)
        .send({
          slug: 'to-be-deleted',
          name: 'n',
          description: 'd',
          parent_uid: known[0],
          writers: [{ username: 'alice' }, { username: 'bob' }],
          auditors: [{ username: 'carol' }],
        })
        .expect(201)
    ).body as { uid: string };
    await service.request
      .put(`/projects/${doomed.uid}/settings`)
      .set('Authorization', admin)
      .send({
        meeting_coordinators: [{ username: 'dave' }],
        writers: [{ username: 'alice' }, { username: 'bob' }],
        auditors: [{ username: 'carol' }],
      })
      .expect(200);
    const before = await counts();
    await service.request.delete(`/projects/${doomed.uid}`).set('Authorization', admin).expect(204);
    const after = await counts();
    expect(after).toEqual({
      listed: before.listed - 1,
      members: before.members - 4,
      projectRows: before.projectRows - 1,
      memberRows: before.memberRows - 4,
    });
    await service.request.get(`/projects/${doomed.uid}`).set('Authorization', admin).expect(404);
  });
});

import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import { bearer, useProjectService } from './app';
import { createProject, rootUid, uniqueSlug } from './project-fixtures';
import { clientEncode, MEDIA_TYPES, rawBytes, type WireFormat } from './wire-formats';

// A project the caller may not view does not exist for them: naming it as the parent of a create
// or a move must answer exactly what naming a uid no project has answers (400 invalid parent
// project), or the difference tells a caller that a hidden project exists. A parent the caller
// views but may not write stays 403.
const service = useProjectService();

// The tree:
//   root
//   ├── hidden  (private; writers: wanda)   sam cannot view it
//   ├── seen    (public; no members)        sam views it, may not write it
//   └── home    (private; writers: sam)
//       └── a child per case, which sam moves
const sam = () => bearer('sam');
let hidden: string;
let seen: string;
let home: string;
beforeAll(async () => {
  const root = await rootUid(service);
  hidden = (await createProject(service, { parent_uid: root, writers: [{ username: 'wanda' }] })).uid;
  seen = (await createProject(service, { parent_uid: root, public: true })).uid;
  home = (await createProject(service, { parent_uid: root, writers: [{ username: 'sam' }] })).uid;
});

type Format = 'json' | WireFormat;

/** The request in `format` (body and Accept), as sam, its answer kept as raw bytes. */
function asSam(
  test: Test,
  format: Format,
  representation: 'CreateProjectRequest' | 'UpdateProjectBaseRequest',
  body: Record<string, unknown>,
): Test {
  const request = test
    .set('Authorization', sam())
    .set('X-Request-Id', 'one-request-id')
    .buffer(true)
    .parse(rawBytes);
  if (format === 'json') return request.set('Accept', 'application/json').send(body);
  return request
    .set('Accept', MEDIA_TYPES[format])
    .set('Content-Type', MEDIA_TYPES[format])
    .send(clientEncode(representation, format, body));
}

/** Everything a client sees of an answer but the time it was sent (a gob body in base64). */
function answerOf(response: { status: number; headers: Record<string, string>; body: unknown }) {
  const { date: _date, ...headers } = response.headers;
  const bytes = response.body as Buffer;
  const body =
    headers['content-type'] === 'application/gob' ? bytes.toString('base64') : bytes.toString('utf8');
  return { status: response.status, headers, body };
}

function create(format: Format, parentUid: string) {
  return asSam(service.request.post('/projects'), format, 'CreateProjectRequest', {
    slug: uniqueSlug(),
    name: 'n',
    description: 'd',
    parent_uid: parentUid,
  });
}

async function move(format: Format, parentUid: string) {
  const child = await createProject(service, { parent_uid: home });
  return asSam(service.request.put(`/projects/${child.uid}`), format, 'UpdateProjectBaseRequest', {
    slug: child.slug,
    name: 'moved',
    description: 'd',
    parent_uid: parentUid,
  });
}

describe.each(['json', 'xml', 'gob'] as const)('a parent the caller cannot view, in %s', (format) => {
  it('create under it answers as under a parent that does not exist', async () => {
    const underHidden = answerOf(await create(format, hidden));
    const underMissing = answerOf(await create(format, randomUUID()));
    expect(underHidden).toEqual(underMissing);
    expect(underMissing.status).toBe(400);
  });

  it('moving a project under it answers as under a parent that does not exist', async () => {
    const underHidden = answerOf(await move(format, hidden));
    const underMissing = answerOf(await move(format, randomUUID()));
    expect(underHidden).toEqual(underMissing);
    expect(underMissing.status).toBe(400);
  });
});

describe('the answers, in JSON', () => {
  const json = (answer: { status: number; body: string }) => ({
    status: answer.status,
    body: JSON.parse(answer.body) as unknown,
  });
  const invalidParent = { status: 400, body: { code: '400', message: 'invalid parent project' } };

  it('a hidden or missing parent: 400 invalid parent project', async () => {
    expect(json(answerOf(await create('json', hidden)))).toEqual(invalidParent);
    expect(json(answerOf(await move('json', hidden)))).toEqual(invalidParent);
  });

  it('a parent the caller views but may not write: 403', async () => {
    expect(json(answerOf(await create('json', seen)))).toEqual({
      status: 403,
      body: { code: '403', message: 'not allowed to create a project under this parent' },
    });
    expect(json(answerOf(await move('json', seen)))).toEqual({
      status: 403,
      body: { code: '403', message: 'not allowed to move a project under this parent' },
    });
  });

  it('a parent the caller writes: created and moved', async () => {
    expect((await create('json', home)).status).toBe(201);
    const other = await createProject(service, { parent_uid: home });
    expect((await move('json', other.uid)).status).toBe(200);
  });
});

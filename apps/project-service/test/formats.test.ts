import { goForTests } from '@repo/testing';
import type { Test } from 'supertest';
import { bearer, useProjectService } from './app';
import { admin, createProject, rootUid, uniqueSlug } from './project-fixtures';
import {
  MEDIA_TYPES,
  RESPONSE_CONTENT_TYPES,
  clientDecode,
  clientEncode,
  filled,
  rawBytes,
  type WireFormat,
} from './wire-formats';
import { representations, type RepresentationName } from '../src/http/representations';
import { goLookup } from './go-client';

// Every operation in XML and gob, requests written and responses read by a Go
// client (the real encoding/xml and encoding/gob when Go is installed, as in CI),
// compared with what the same operation gives in JSON.
// Without Go: one line saying the round trips used our own codecs (a failure where GO_INTEROP=required).
goForTests('project-service formats.test.ts: round trips through the Go client', goLookup);
const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

const MISSING_UID = '00000000-0000-4000-8000-000000000000';
const winnie = { username: 'winnie', name: 'Winnie Ünïcødé 😀', email: 'w@example.com', avatar: '' };

function everyField(parent: string) {
  return {
    slug: uniqueSlug('fmt'),
    name: 'Formats <&> "quoted" ☃',
    description: 'line one\nline two',
    parent_uid: parent,
    public: true,
    is_foundation: true,
    autojoin_enabled: false,
    category: 'Sandbox',
    stage: 'Formation - Engaged',
    legal_entity_type: 'Series LLC',
    legal_entity_name: 'Formats LLC',
    legal_parent_uid: '',
    funding_model: ['Crowdfunding', 'Membership'],
    charter_url: 'https://example.com/charter?a=1&b=2',
    entity_formation_document_url: '',
    logo_url: '',
    repository_url: '',
    website_url: 'https://example.com/',
    formation_date: '2021-02-28',
    entity_dissolution_date: '',
    announcement_date: '2022-01-01',
    mission_statement: 'to speak every format',
    writers: [winnie],
    auditors: [],
    meeting_coordinators: [{ username: 'mo', name: '', email: '', avatar: '' }],
  };
}

/** Sends a body in `format` and asks for `format` back; the body comes back as raw bytes. */
function inFormat(test: Test, format: WireFormat, body?: Buffer): Test {
  const request = test
    .set('Authorization', admin())
    .set('Accept', MEDIA_TYPES[format])
    .buffer(true)
    .parse(rawBytes);
  return body ? request.set('Content-Type', MEDIA_TYPES[format]).send(body) : request;
}

/** What a Go client reads from a response, after checking the negotiated headers. */
function decoded(
  response: { headers: Record<string, string>; body: unknown },
  representation: RepresentationName,
  format: WireFormat,
): Record<string, unknown> {
  expect(response.headers['content-type']).toBe(RESPONSE_CONTENT_TYPES[format]);
  expect(response.headers['vary']).toMatch(/Accept/);
  return clientDecode(representation, format, response.body as Buffer) as Record<string, unknown>;
}

/**
 * The JSON answer to a GET as a Go client reads it into its struct: the fields JSON leaves out
 * (unset ones) at their zero values, as the XML or gob client sees them.
 */
async function jsonOf(path: string, representation: RepresentationName): Promise<Record<string, unknown>> {
  const response = await service.request.get(path).set('Authorization', admin()).expect(200);
  return filled(representations[representation], response.body) as Record<string, unknown>;
}

/** The same refused create (400) sent in JSON and in `format`: both error bodies, decoded. */
async function refusedCreate(format: WireFormat, request: Record<string, unknown>) {
  const json = await service.request
    .post('/projects')
    .set('Authorization', admin())
    .send(request)
    .expect(400);
  const response = await inFormat(
    service.request.post('/projects'),
    format,
    clientEncode('CreateProjectRequest', format, request),
  ).expect(400);
  return { json: json.body as unknown, inTheFormat: decoded(response, 'Error', format) };
}

describe.each(['xml', 'gob'] as const)('%s bodies', (format) => {
  it('creates a project from a Go client body and answers ProjectFull as JSON would', async () => {
    const request = everyField(root);
    const response = await inFormat(
      service.request.post('/projects'),
      format,
      clientEncode('CreateProjectRequest', format, request),
    ).expect(201);
    const created = decoded(response, 'ProjectFull', format);
    expect(created).toMatchObject({ ...request, writers: [winnie] });
    expect(response.headers['etag']).toBe('"b1"');
    expect(response.headers['location']).toBe(`/projects/${String(created['uid'])}`);
    const listed = (await jsonOf(`/projects?slug=${request.slug}`, 'Projects'))['projects'] as unknown[];
    expect(created).toEqual(listed[0]);
  });

  it('creates from the required fields only (Go leaves every zero value out)', async () => {
    const request = { slug: uniqueSlug('min'), name: 'Minimal', description: '', parent_uid: root };
    const response = await inFormat(
      service.request.post('/projects'),
      format,
      clientEncode('CreateProjectRequest', format, request),
    ).expect(201);
    expect(decoded(response, 'ProjectFull', format)).toMatchObject({
      ...request,
      public: false,
      funding_model: [],
      writers: [],
      category: '',
    });
  });

  it('reads the base representation with the same values and ETag as JSON', async () => {
    const project = await createProject(service, everyField(root));
    const response = await inFormat(service.request.get(`/projects/${project.uid}`), format).expect(200);
    const json = await service.request
      .get(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .expect(200);
    expect(decoded(response, 'ProjectBase', format)).toEqual(filled(representations.ProjectBase, json.body));
    expect(response.headers['etag']).toBe(json.headers['etag']);
  });

  it('answers 304 to If-None-Match in any format', async () => {
    const project = await createProject(service, { parent_uid: root });
    const response = await inFormat(service.request.get(`/projects/${project.uid}`), format)
      .set('If-None-Match', '"b1"')
      .expect(304);
    expect(response.headers['etag']).toBe('"b1"');
  });

  it('updates the base with If-Match and answers the new ProjectBase and ETag', async () => {
    const project = await createProject(service, { parent_uid: root });
    const {
      writers: _w,
      auditors: _a,
      meeting_coordinators: _m,
      announcement_date: _d,
      mission_statement: _s,
      ...base
    } = everyField(root);
    const response = await inFormat(
      service.request.put(`/projects/${project.uid}`),
      format,
      clientEncode('UpdateProjectBaseRequest', format, base),
    )
      .set('If-Match', '"b1"')
      .expect(200);
    expect(response.headers['etag']).toBe('"b2"');
    const updated = decoded(response, 'ProjectBase', format);
    expect(updated).toMatchObject({ ...base, uid: project.uid });
    expect(updated).toEqual(await jsonOf(`/projects/${project.uid}`, 'ProjectBase'));
  });

  it('reads and replaces the settings, members with unicode names and empty lists included', async () => {
    const project = await createProject(service, { parent_uid: root });
    const settings = {
      announcement_date: '2023-03-04',
      mission_statement: 'members in every format',
      writers: [winnie, { username: 'bob', name: '', email: '', avatar: '' }],
      auditors: [],
      meeting_coordinators: [winnie],
    };
    const put = await inFormat(
      service.request.put(`/projects/${project.uid}/settings`),
      format,
      clientEncode('UpdateProjectSettingsRequest', format, settings),
    )
      .set('If-Match', '"s1"')
      .expect(200);
    expect(put.headers['etag']).toBe('"s2"');
    expect(decoded(put, 'ProjectSettings', format)).toMatchObject({ ...settings, uid: project.uid });
    const get = await inFormat(service.request.get(`/projects/${project.uid}/settings`), format).expect(200);
    expect(decoded(get, 'ProjectSettings', format)).toEqual(
      await jsonOf(`/projects/${project.uid}/settings`, 'ProjectSettings'),
    );
  });

  it('empties the settings with an empty body value (every field zero)', async () => {
    const project = await createProject(service, { parent_uid: root, writers: [winnie] });
    const response = await inFormat(
      service.request.put(`/projects/${project.uid}/settings`),
      format,
      clientEncode('UpdateProjectSettingsRequest', format, {}),
    ).expect(200);
    expect(decoded(response, 'ProjectSettings', format)).toMatchObject({
      writers: [],
      auditors: [],
      meeting_coordinators: [],
      mission_statement: '',
    });
  });

  it('deletes with If-Match, and answers a stale one with the Error body in the format', async () => {
    const project = await createProject(service, { parent_uid: root });
    const stale = await inFormat(service.request.delete(`/projects/${project.uid}`), format)
      .set('If-Match', '"b7"')
      .expect(412);
    expect(decoded(stale, 'Error', format)).toEqual({
      code: '412',
      message: expect.stringContaining('If-Match') as unknown,
    });
    await inFormat(service.request.delete(`/projects/${project.uid}`), format)
      .set('If-Match', '"b1"')
      .expect(204);
    const gone = await inFormat(service.request.get(`/projects/${project.uid}`), format).expect(404);
    expect(decoded(gone, 'Error', format)).toMatchObject({ code: '404' });
  });

  it('pages the list with next_page_token and a Link header', async () => {
    const parent = await createProject(service, { parent_uid: root });
    const children = [];
    for (const name of ['c', 'a', 'b']) {
      children.push(await createProject(service, { parent_uid: parent.uid, name }));
    }
    const first = await inFormat(
      service.request.get('/projects').query({ parent_uid: parent.uid, page_size: 2 }),
      format,
    ).expect(200);
    const page = decoded(first, 'Projects', format) as {
      projects: { name: string }[];
      next_page_token: string;
    };
    expect(page.projects.map((project) => project.name)).toEqual(['a', 'b']);
    expect(page.next_page_token).not.toBe('');
    expect(first.headers['link']).toContain(`page_token=${page.next_page_token}`);
    const json = await jsonOf(`/projects?parent_uid=${parent.uid}&page_size=2`, 'Projects');
    expect(page).toEqual(json);
  });

  it('streams the unpaged list, equal to the JSON list, and an empty one', async () => {
    const parent = await createProject(service, { parent_uid: root });
    for (let index = 0; index < 7; index += 1) {
      await createProject(service, { ...everyField(parent.uid), name: `child ${index % 3}` });
    }
    const response = await inFormat(
      service.request.get('/projects').query({ parent_uid: parent.uid }),
      format,
    ).expect(200);
    expect(response.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    const list = decoded(response, 'Projects', format) as { projects: unknown[] };
    expect(list.projects).toHaveLength(7);
    expect(list).toEqual({
      ...(await jsonOf(`/projects?parent_uid=${parent.uid}`, 'Projects')),
      next_page_token: '',
    });

    const empty = await inFormat(
      service.request.get('/projects').query({ parent_uid: MISSING_UID }),
      format,
    ).expect(200);
    expect(decoded(empty, 'Projects', format)).toEqual({ projects: [], next_page_token: '' });
  });

  it('streams only what the caller may view', async () => {
    const parent = await createProject(service, { parent_uid: root });
    const visible = await createProject(service, { parent_uid: parent.uid, public: true });
    await createProject(service, { parent_uid: parent.uid, public: false });
    const response = await service.request
      .get('/projects')
      .query({ parent_uid: parent.uid })
      .set('Authorization', bearer('nobody-in-particular'))
      .set('Accept', MEDIA_TYPES[format])
      .buffer(true)
      .parse(rawBytes)
      .expect(200);
    const list = decoded(response, 'Projects', format) as { projects: { uid: string }[] };
    expect(list.projects.map((project) => project.uid)).toEqual([visible.uid]);
  });

  it('answers a validation failure with the same 400 message as JSON', async () => {
    const request = { slug: 'Not A Slug', name: 'x', description: '', parent_uid: root };
    const { json, inTheFormat } = await refusedCreate(format, request);
    expect(inTheFormat).toEqual(json);
  });

  it('treats a required field a Go client left out like "" in JSON', async () => {
    const request = { slug: uniqueSlug(), name: '', description: '', parent_uid: root };
    const { json, inTheFormat } = await refusedCreate(format, request);
    expect(inTheFormat).toEqual(json);
  });

  it('refuses a malformed body with 400 in the format', async () => {
    const body = clientEncode('CreateProjectRequest', format, everyField(root));
    const response = await inFormat(
      service.request.post('/projects'),
      format,
      body.subarray(0, Math.floor(body.length * 0.7)),
    ).expect(400);
    expect(decoded(response, 'Error', format)).toMatchObject({
      code: '400',
      message: expect.stringMatching(/^malformed request body/) as unknown,
    });
  });

  it('answers 401 and 404 with the Error body in the format', async () => {
    const unauthorized = await service.request
      .get(`/projects/${root}`)
      .set('Accept', MEDIA_TYPES[format])
      .buffer(true)
      .parse(rawBytes)
      .expect(401);
    expect(decoded(unauthorized, 'Error', format)).toMatchObject({ code: '401' });
    const missing = await inFormat(service.request.get(`/projects/${MISSING_UID}/settings`), format).expect(
      404,
    );
    expect(decoded(missing, 'Error', format)).toMatchObject({ code: '404' });
  });
});

import { useProjectService } from './app';
import { admin, asAnswered, createProject, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

const MISSING_UID = '00000000-0000-4000-8000-000000000000';

const fullProject = () => ({
  slug: uniqueSlug('full'),
  name: 'Full project',
  description: 'every field set',
  autojoin_enabled: true,
  category: 'Neutral-2',
  charter_url: 'https://example.com/charter.pdf',
  entity_dissolution_date: '2030-12-31',
  entity_formation_document_url: 'https://example.com/formation.pdf',
  formation_date: '2021-01-01',
  funding_model: ['Crowdfunding', 'Membership'],
  is_foundation: true,
  legal_entity_name: 'Example Foundation LLC',
  legal_entity_type: 'Series LLC',
  legal_parent_uid: '7cad5a8d-19d0-41a4-81a6-043453daf9ee',
  logo_url: 'https://example.com/logo.png',
  public: true,
  repository_url: 'https://example.com/repo',
  stage: 'Formation - Exploratory',
  website_url: 'https://example.com',
  announcement_date: '2021-02-03',
  mission_statement: 'to test',
  writers: [
    {
      username: 'wendy',
      name: 'Wendy Writer',
      email: 'wendy@example.com',
      avatar: 'https://example.com/w.png',
    },
  ],
  auditors: [{ username: 'audrey', name: 'Audrey', email: '', avatar: '' }],
  meeting_coordinators: [{ username: 'mo', name: 'Mo', email: 'mo@example.com', avatar: '' }],
});

/** POST /projects as the admin with `body` sent as it is, under `contentType`. */
function postAsIs(contentType: string, body: string) {
  return service.request
    .post('/projects')
    .set('Authorization', admin())
    .set('Content-Type', contentType)
    .send(body);
}

describe('create-project', () => {
  it('creates a project under the root and answers 201 with every field of ProjectFull', async () => {
    const request = fullProject();
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send({ ...request, parent_uid: root, unknown_field: 'ignored' })
      .expect(201);
    expect(response.body).toEqual({
      ...asAnswered(request),
      parent_uid: root,
      uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(response.body).not.toHaveProperty('unknown_field');
    expect(response.headers['location']).toBe(`/projects/${response.body.uid}`);
  });

  it('leaves out every optional field that was not sent, and answers the flags false', async () => {
    const created = await createProject(service, { parent_uid: root, description: '' });
    expect(Object.keys(created).sort()).toEqual(
      [
        'uid',
        'slug',
        'name',
        'description',
        'parent_uid',
        'public',
        'is_foundation',
        'autojoin_enabled',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(created).toMatchObject({
      description: '',
      public: false,
      is_foundation: false,
      autojoin_enabled: false,
    });
  });

  it('leaves out a field sent as "" or [], members\' fields included, as if it was not sent', async () => {
    const created = await createProject(service, {
      parent_uid: root,
      category: '',
      charter_url: '',
      legal_parent_uid: '',
      mission_statement: '',
      funding_model: [],
      auditors: [],
      writers: [{ username: 'wendy', name: '', email: '', avatar: '' }],
    });
    for (const field of [
      'category',
      'charter_url',
      'legal_parent_uid',
      'mission_statement',
      'funding_model',
      'auditors',
    ]) {
      expect(created).not.toHaveProperty(field);
    }
    expect(created['writers']).toEqual([{ username: 'wendy' }]);
  });

  it.each(['slug', 'name', 'description', 'parent_uid'])('requires %s', async (field) => {
    const body: Record<string, unknown> = {
      slug: uniqueSlug(),
      name: 'n',
      description: 'd',
      parent_uid: root,
    };
    delete body[field];
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send(body)
      .expect(400);
    expect(response.body).toEqual({ code: '400', message: `${field}: is required` });
  });

  it('refuses a slug that is already taken with 409', async () => {
    const existing = await createProject(service, { parent_uid: root });
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send({ slug: existing.slug, name: 'n', description: 'd', parent_uid: root })
      .expect(409);
    expect(response.body).toEqual({ code: '409', message: expect.stringContaining('slug') });
  });

  it('refuses a parent that does not exist with 400 invalid parent project', async () => {
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: MISSING_UID })
      .expect(400);
    expect(response.body).toEqual({ code: '400', message: 'invalid parent project' });
  });

  it('refuses a parent_uid that is not a UUID with 400', async () => {
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: 'not-a-uuid' })
      .expect(400);
    expect(response.body.message).toBe('parent_uid: must be a valid uuid');
  });

  it('refuses a body that is not JSON with 400', async () => {
    const response = await postAsIs('application/json', '{"slug": ').expect(400);
    expect(response.body).toEqual({ code: '400', message: expect.stringContaining('malformed') });
  });

  it('refuses a request without a body with 400', async () => {
    await service.request.post('/projects').set('Authorization', admin()).expect(400);
  });

  it('refuses a body larger than 1 MB with 413', async () => {
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send({ slug: uniqueSlug(), name: 'n', description: 'x'.repeat(1_100_000), parent_uid: root })
      .expect(413);
    expect(response.body.code).toBe('413');
  });

  it('refuses an unsupported Content-Type with 415', async () => {
    const response = await postAsIs('text/plain', 'slug=x').expect(415);
    expect(response.body.code).toBe('415');
  });
});

describe('get-one-project-base', () => {
  it('returns the base representation with a strong ETag', async () => {
    const created = await createProject(service, { ...fullProject(), parent_uid: root });
    const response = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    expect(response.headers['etag']).toMatch(/^"[^"]+"$/);
    expect(response.body.uid).toBe(created.uid);
    expect(response.body).not.toHaveProperty('mission_statement');
    expect(response.body).not.toHaveProperty('writers');
    // Every field of the base, all of them set.
    expect(Object.keys(response.body).sort()).toHaveLength(23);
  });

  it('answers 304 when If-None-Match names the current ETag', async () => {
    const created = await createProject(service, { parent_uid: root });
    const first = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const etag = first.headers['etag'] as string;
    const second = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('If-None-Match', etag)
      .expect(304);
    expect(second.headers['etag']).toBe(etag);
    expect(second.text).toBe('');
  });

  it('answers 200 when If-None-Match names an old ETag', async () => {
    const created = await createProject(service, { parent_uid: root });
    await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('If-None-Match', '"b999"')
      .expect(200);
  });

  it('answers 404 for a project that does not exist', async () => {
    const response = await service.request
      .get(`/projects/${MISSING_UID}`)
      .set('Authorization', admin())
      .expect(404);
    expect(response.body).toEqual({ code: '404', message: 'project not found' });
  });

  it('answers 404 for a uid that is not a UUID (it names no project)', async () => {
    await service.request.get('/projects/not-a-uuid').set('Authorization', admin()).expect(404);
  });
});

describe('update-project-base', () => {
  it('replaces the base fields, answers 200 with the new ETag, and leaves the settings alone', async () => {
    const created = await createProject(service, {
      parent_uid: root,
      mission_statement: 'keep me',
      category: 'Active',
    });
    const before = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const settingsBefore = await service.request
      .get(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    const response = await service.request
      .put(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('If-Match', before.headers['etag'] as string)
      .send({ slug: created.slug, name: 'Renamed', description: 'new', parent_uid: root })
      .expect(200);
    expect(response.body).toMatchObject({
      uid: created.uid,
      name: 'Renamed',
      description: 'new',
    });
    // Not sent: unset, so left out.
    expect(response.body).not.toHaveProperty('category');
    expect(response.headers['etag']).not.toBe(before.headers['etag']);
    const after = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    expect(after.headers['etag']).toBe(response.headers['etag']);
    expect(after.body.name).toBe('Renamed');
    const settingsAfter = await service.request
      .get(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    expect(settingsAfter.headers['etag']).toBe(settingsBefore.headers['etag']);
    expect(settingsAfter.body.mission_statement).toBe('keep me');
  });

  it('accepts a bare ETag and * in If-Match', async () => {
    const created = await createProject(service, { parent_uid: root });
    const current = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const bare = (current.headers['etag'] as string).replace(/"/g, '');
    const body = { slug: created.slug, name: 'n', description: 'd', parent_uid: root };
    await service.request
      .put(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('If-Match', bare)
      .send(body)
      .expect(200);
    await service.request
      .put(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('If-Match', '*')
      .send(body)
      .expect(200);
  });

  it('answers 412 and writes nothing when If-Match is stale', async () => {
    const created = await createProject(service, { parent_uid: root });
    const current = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const stale = current.headers['etag'] as string;
    await service.request
      .put(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('If-Match', stale)
      .send({ slug: created.slug, name: 'first', description: 'd', parent_uid: root })
      .expect(200);
    const response = await service.request
      .put(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('If-Match', stale)
      .send({ slug: created.slug, name: 'second', description: 'd', parent_uid: root })
      .expect(412);
    expect(response.body.code).toBe('412');
    const after = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    expect(after.body.name).toBe('first');
  });

  it('answers 409 when the new slug belongs to another project', async () => {
    const first = await createProject(service, { parent_uid: root });
    const second = await createProject(service, { parent_uid: root });
    await service.request
      .put(`/projects/${second.uid}`)
      .set('Authorization', admin())
      .send({ slug: first.slug, name: 'n', description: 'd', parent_uid: root })
      .expect(409);
  });

  it('answers 404 for a project that does not exist', async () => {
    await service.request
      .put(`/projects/${MISSING_UID}`)
      .set('Authorization', admin())
      .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: root })
      .expect(404);
  });

  it('answers 400 for a uid that is not a UUID', async () => {
    const response = await service.request
      .put('/projects/not-a-uuid')
      .set('Authorization', admin())
      .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: root })
      .expect(400);
    expect(response.body.message).toBe('uid: must be a valid uuid');
  });

  it.each(['slug', 'name', 'description', 'parent_uid'])('requires %s', async (field) => {
    const created = await createProject(service, { parent_uid: root });
    const body: Record<string, unknown> = {
      slug: created.slug,
      name: 'n',
      description: 'd',
      parent_uid: root,
    };
    delete body[field];
    const response = await service.request
      .put(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .send(body)
      .expect(400);
    expect(response.body.message).toBe(`${field}: is required`);
  });
});

describe('delete-project', () => {
  it('deletes a project with 204 and leaves its neighbour alone', async () => {
    const doomed = await createProject(service, { parent_uid: root });
    const neighbour = await createProject(service, { parent_uid: root });
    const response = await service.request
      .delete(`/projects/${doomed.uid}`)
      .set('Authorization', admin())
      .expect(204);
    expect(response.text).toBe('');
    await service.request.get(`/projects/${doomed.uid}`).set('Authorization', admin()).expect(404);
    await service.request.get(`/projects/${neighbour.uid}`).set('Authorization', admin()).expect(200);
  });

  it('answers 412 and keeps the project when If-Match is stale', async () => {
    const created = await createProject(service, { parent_uid: root });
    await service.request
      .delete(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('If-Match', '"b41"')
      .expect(412);
    await service.request.get(`/projects/${created.uid}`).set('Authorization', admin()).expect(200);
  });

  it('deletes when If-Match names the current ETag', async () => {
    const created = await createProject(service, { parent_uid: root });
    const current = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    await service.request
      .delete(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('If-Match', current.headers['etag'] as string)
      .expect(204);
  });

  it('answers 404 for a project that does not exist', async () => {
    await service.request.delete(`/projects/${MISSING_UID}`).set('Authorization', admin()).expect(404);
  });

  it('answers 400 for a uid that is not a UUID', async () => {
    await service.request.delete('/projects/12345').set('Authorization', admin()).expect(400);
  });
});

import supertest from 'supertest';
import { connectPrisma } from '../src/db/database';
import { composeApp } from '../src/compose';
import { createLogger } from '../src/logger';
import { testAuthConfig, useProjectService } from './app';
import { admin, createProject, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

const MISSING_UID = '00000000-0000-4000-8000-000000000000';

describe('parameters shared by the operations', () => {
  it('accepts v=1', async () => {
    const created = await createProject(service, { parent_uid: root });
    await service.request
      .get(`/projects/${created.uid}`)
      .query({ v: '1' })
      .set('Authorization', admin())
      .expect(200);
  });

  it.each([
    ['get', '/projects'],
    ['post', '/projects'],
    ['get', '/projects/UID'],
    ['put', '/projects/UID'],
    ['delete', '/projects/UID'],
    ['get', '/projects/UID/settings'],
    ['put', '/projects/UID/settings'],
  ] as const)('refuses v other than 1 on %s %s with 400', async (method, path) => {
    const created = await createProject(service, { parent_uid: root });
    const response = await service.request[method](path.replace('UID', created.uid))
      .query({ v: '2' })
      .set('Authorization', admin())
      .send({ slug: created.slug, name: 'n', description: 'd', parent_uid: root })
      .expect(400);
    expect(response.body.message).toBe('v: must be "1"');
  });

  it.each([
    ['post', '/projects'],
    ['put', '/projects/UID'],
    ['delete', '/projects/UID'],
    ['put', '/projects/UID/settings'],
  ] as const)('refuses an X-Sync that is not true or false on %s %s with 400', async (method, path) => {
    const created = await createProject(service, { parent_uid: root });
    const response = await service.request[method](path.replace('UID', created.uid))
      .set('Authorization', admin())
      .set('X-Sync', 'yes')
      .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: root })
      .expect(400);
    expect(response.body.message).toBe('X-Sync: must be one of "true", "false"');
  });

  it('accepts X-Sync true and false', async () => {
    await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('X-Sync', 'true')
      .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: root })
      .expect(201);
    await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('X-Sync', 'false')
      .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: root })
      .expect(201);
  });

  it('answers 406 when Accept allows no format this service produces, with a JSON error body', async () => {
    const created = await createProject(service, { parent_uid: root });
    const response = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('Accept', 'image/png')
      .expect(406);
    expect(response.body.code).toBe('406');
  });

  it('refuses a write with 406 before performing it when Accept allows no format', async () => {
    const created = await createProject(service, { parent_uid: root });
    await service.request
      .put(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('Accept', 'text/csv')
      .send({ slug: created.slug, name: 'not written', description: 'd', parent_uid: root })
      .expect(406);
    const after = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    expect(after.body.name).toBe(created.name);
  });

  it('honours Accept with q-values that include JSON', async () => {
    const created = await createProject(service, { parent_uid: root });
    const response = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .set('Accept', 'image/png;q=1, application/json;q=0.5')
      .expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['vary']).toMatch(/Accept/);
  });

  it('answers 405 with Allow for a method the path does not support', async () => {
    const response = await service.request.patch('/projects').set('Authorization', admin()).expect(405);
    expect(response.headers['allow']).toBe('GET, POST');
  });

  it('answers OPTIONS on every documented path with 204 and Allow, without credentials', async () => {
    const document = await service.request.get('/_projects/openapi3.json').expect(200);
    const paths = document.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths).length).toBeGreaterThan(0);
    for (const [path, operations] of Object.entries(paths)) {
      const concrete = path.replace(/\{\w+\}/g, MISSING_UID);
      const methods = Object.keys(operations).map((method) => method.toUpperCase());
      const response = await service.request.options(concrete);
      expect({
        path,
        status: response.status,
        allow: response.headers['allow'],
        body: response.text,
      }).toEqual({ path, status: 204, allow: methods.join(', '), body: '' });
    }
  });

  it('answers a method the path does not support with 405 and Allow, without credentials', async () => {
    const response = await service.request.patch(`/projects/${MISSING_UID}/settings`).expect(405);
    expect(response.headers['allow']).toBe('GET, PUT');
    expect(response.headers['www-authenticate']).toBeUndefined();
  });
});

describe('an unreachable database', () => {
  it.each([
    ['get', '/projects'],
    ['get', `/projects/${MISSING_UID}`],
    ['get', `/projects/${MISSING_UID}/settings`],
    ['post', '/projects'],
    ['put', `/projects/${MISSING_UID}`],
    ['delete', `/projects/${MISSING_UID}`],
    ['put', `/projects/${MISSING_UID}/settings`],
  ] as const)('answers %s %s with 503 and an error body', async (method, path) => {
    // Port 1 on loopback refuses connections: a database that is down.
    const database = connectPrisma({ kind: 'postgres', url: 'postgresql://postgres@127.0.0.1:1/none' });
    try {
      const app = composeApp({ database, logger: createLogger('silent'), auth: testAuthConfig });
      const client = supertest(app);
      const response = await client[method](path)
        .set('Authorization', admin())
        .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: MISSING_UID })
        .expect(503);
      expect(response.body).toEqual({ code: '503', message: expect.any(String) });
    } finally {
      await database.close();
    }
  });
});

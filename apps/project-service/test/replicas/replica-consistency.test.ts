import path from 'node:path';
import { createTestDatabase, startReplicaSet, type ReplicaSet, type TestDatabase } from '@repo/testing';
import supertest from 'supertest';
import { ADMIN_PRINCIPAL, bearer, TEST_JWT_SECRET } from '../app';
import { uniqueSlug } from '../project-fixtures';

// What only several replicas can break: two processes of the built service on one PostgreSQL
// database, each request of a case sent to the replica the case names. Each replica caches the
// tokens it verified (README: What each replica keeps in memory), never what a token may do: a
// change made through one replica is what the other answers from on the next request.
// PostgreSQL only: jest.config.js leaves test/replicas/ out without DATABASE_URL.

let database: TestDatabase;
let set: ReplicaSet;
let root: string;

const on = (index: 0 | 1) => supertest(set.replicas[index]!.baseUrl);
const admin = bearer(ADMIN_PRINCIPAL);

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.source.kind !== 'postgres') throw new Error('replica tests need DATABASE_URL');
  set = await startReplicaSet({
    appDir: path.resolve(__dirname, '../..'),
    count: 2,
    env: {
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_PRINCIPALS: ADMIN_PRINCIPAL,
      DATABASE_URL: database.source.url,
    },
  });
  const roots = await on(0).get('/projects').query({ slug: 'root' }).set('Authorization', admin).expect(200);
  root = roots.body.projects[0].uid as string;
}, 120_000);

afterAll(async () => {
  await set?.stop();
  await database?.drop();
});

async function createProject(fields: Record<string, unknown> = {}) {
  const response = await on(0)
    .post('/projects')
    .set('Authorization', admin)
    .send({ slug: uniqueSlug(), name: 'replicated', description: 'd', parent_uid: root, ...fields })
    .expect(201);
  return { ...(response.body as { uid: string; slug: string }), etag: String(response.headers['etag']) };
}

const baseOf = (project: { slug: string }, fields: Record<string, unknown> = {}) => ({
  slug: project.slug,
  name: 'replicated',
  description: 'd',
  parent_uid: root,
  ...fields,
});

describe('two replicas on one database', () => {
  it('a writer removed through one replica is refused by the other at once', async () => {
    const project = await createProject({ writers: [{ username: 'wanda' }] });
    const wanda = bearer('wanda');
    // Wanda's token verified (and cached) on both first.
    await on(0).get(`/projects/${project.uid}/settings`).set('Authorization', wanda).expect(200);
    await on(1).get(`/projects/${project.uid}/settings`).set('Authorization', wanda).expect(200);
    await on(0)
      .put(`/projects/${project.uid}/settings`)
      .set('Authorization', admin)
      .send({ writers: [] })
      .expect(200);
    await on(1).get(`/projects/${project.uid}`).set('Authorization', wanda).expect(404);
    await on(1)
      .put(`/projects/${project.uid}`)
      .set('Authorization', wanda)
      .send(baseOf(project, { description: 'still a writer?' }))
      .expect(404);
  });

  it('a project made public, then private, through one replica is shown and hidden by the other at once', async () => {
    const project = await createProject();
    const stranger = bearer('sam');
    await on(1).get(`/projects/${project.uid}`).set('Authorization', stranger).expect(404);
    const published = await on(0)
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin)
      .send(baseOf(project, { public: true }))
      .expect(200);
    await on(1).get(`/projects/${project.uid}`).set('Authorization', stranger).expect(200);
    await on(0)
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin)
      .set('If-Match', String(published.headers['etag']))
      .send(baseOf(project, { public: false }))
      .expect(200);
    await on(1).get(`/projects/${project.uid}`).set('Authorization', stranger).expect(404);
  });

  it('a rename through one replica is seen by the next request on the other', async () => {
    const project = await createProject();
    const newSlug = uniqueSlug('renamed');
    await on(0)
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin)
      .send(baseOf(project, { slug: newSlug }))
      .expect(200);
    const byOld = await on(1).get('/projects').query({ slug: project.slug }).set('Authorization', admin);
    expect(byOld.body.projects).toEqual([]);
    const byNew = await on(1)
      .get('/projects')
      .query({ slug: newSlug })
      .set('Authorization', admin)
      .expect(200);
    expect(byNew.body.projects.map((found: { uid: string }) => found.uid)).toEqual([project.uid]);
  });

  it('an ETag from one replica is the one the other checks If-Match against', async () => {
    const project = await createProject();
    const updated = await on(0)
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin)
      .set('If-Match', project.etag)
      .send(baseOf(project, { description: 'first' }))
      .expect(200);
    expect(updated.headers['etag']).not.toBe(project.etag);
    await on(1)
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin)
      .set('If-Match', project.etag)
      .send(baseOf(project, { description: 'stale' }))
      .expect(412);
    const read = await on(1).get(`/projects/${project.uid}`).set('Authorization', admin).expect(200);
    expect(read.headers['etag']).toBe(updated.headers['etag']);
    expect(read.body.description).toBe('first');
  });
});

import { useProjectService } from './app';
import { admin, createProject, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();
jest.setTimeout(60_000);

let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

function countStatuses(statuses: number[]): Record<number, number> {
  return statuses.reduce<Record<number, number>>(
    (counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
    {},
  );
}

describe('concurrent writes', () => {
  it('lets exactly one of 50 parallel base updates with the same If-Match win; the rest get 412', async () => {
    const project = await createProject(service, { parent_uid: root });
    const current = await service.request
      .get(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const etag = current.headers['etag'] as string;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        service.request
          .put(`/projects/${project.uid}`)
          .set('Authorization', admin())
          .set('If-Match', etag)
          .send({ slug: project.slug, name: `writer ${index}`, description: 'd', parent_uid: root }),
      ),
    );
    expect(countStatuses(responses.map((response) => response.status))).toEqual({ 200: 1, 412: 49 });
    const winner = responses.find((response) => response.status === 200)!;
    const after = await service.request
      .get(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .expect(200);
    expect(after.body.name).toBe(winner.body.name);
    expect(after.headers['etag']).toBe(winner.headers['etag']);
  });

  it('lets exactly one of 50 parallel settings updates with the same If-Match win; the rest get 412', async () => {
    const project = await createProject(service, { parent_uid: root });
    const current = await service.request
      .get(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    const etag = current.headers['etag'] as string;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        service.request
          .put(`/projects/${project.uid}/settings`)
          .set('Authorization', admin())
          .set('If-Match', etag)
          .send({ writers: [{ username: `writer-${index}` }] }),
      ),
    );
    expect(countStatuses(responses.map((response) => response.status))).toEqual({ 200: 1, 412: 49 });
    const winner = responses.find((response) => response.status === 200)!;
    const after = await service.request
      .get(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    expect(after.body.writers).toEqual(winner.body.writers);
    expect(after.body.writers).toHaveLength(1);
  });

  it('lets exactly one of 50 parallel creates with one slug succeed; the rest get 409', async () => {
    const slug = uniqueSlug('race');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        service.request
          .post('/projects')
          .set('Authorization', admin())
          .send({ slug, name: `racer ${index}`, description: 'd', parent_uid: root }),
      ),
    );
    expect(countStatuses(responses.map((response) => response.status))).toEqual({ 201: 1, 409: 49 });
    const list = await service.request
      .get('/projects')
      .query({ slug })
      .set('Authorization', admin())
      .expect(200);
    expect(list.body.projects).toHaveLength(1);
  });
});

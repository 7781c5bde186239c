import { useProjectService } from './app';
import { admin, createProject, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

function moveTo(project: { uid: string; slug: string }, parentUid: string) {
  return service.request
    .put(`/projects/${project.uid}`)
    .set('Authorization', admin())
    .send({ slug: project.slug, name: 'moved', description: 'd', parent_uid: parentUid });
}

describe('the root project', () => {
  it('exists from the first start with slug root, name ROOT, no parent, not public', async () => {
    const response = await service.request.get(`/projects/${root}`).set('Authorization', admin()).expect(200);
    expect(response.body).toMatchObject({ slug: 'root', name: 'ROOT', public: false });
    // No parent: the field is left out, as every unset field is.
    expect(response.body).not.toHaveProperty('parent_uid');
  });

  it('cannot be deleted', async () => {
    const response = await service.request
      .delete(`/projects/${root}`)
      .set('Authorization', admin())
      .expect(400);
    expect(response.body.message).toBe('the root project cannot be deleted');
  });

  it('cannot be moved under another project', async () => {
    const other = await createProject(service, { parent_uid: root });
    const response = await moveTo({ uid: root, slug: 'root' }, other.uid).expect(400);
    expect(response.body.message).toBe('the root project cannot be moved');
  });

  it('can be updated in place with what its GET answered (no parent_uid) sent back', async () => {
    const current = await service.request.get(`/projects/${root}`).set('Authorization', admin()).expect(200);
    const response = await service.request
      .put(`/projects/${root}`)
      .set('Authorization', admin())
      .send({ ...current.body, description: 'the top of the tree' })
      .expect(200);
    expect(response.body).toMatchObject({ slug: 'root', description: 'the top of the tree' });
    expect(response.body).not.toHaveProperty('parent_uid');
  });

  it('can be updated in place with an empty parent_uid', async () => {
    const current = await service.request.get(`/projects/${root}`).set('Authorization', admin()).expect(200);
    const response = await service.request
      .put(`/projects/${root}`)
      .set('Authorization', admin())
      .send({ ...current.body, parent_uid: '', description: 'still the top' })
      .expect(200);
    expect(response.body).toMatchObject({ slug: 'root', description: 'still the top' });
  });
});

describe('re-parenting', () => {
  it('moves a project under another parent', async () => {
    const first = await createProject(service, { parent_uid: root });
    const second = await createProject(service, { parent_uid: root });
    const response = await moveTo(second, first.uid).expect(200);
    expect(response.body.parent_uid).toBe(first.uid);
  });

  it('refuses to make a project its own parent', async () => {
    const project = await createProject(service, { parent_uid: root });
    await moveTo(project, project.uid).expect(400);
  });

  it('refuses to move a project under its own descendant', async () => {
    const top = await createProject(service, { parent_uid: root });
    const middle = await createProject(service, { parent_uid: top.uid });
    const bottom = await createProject(service, { parent_uid: middle.uid });
    const response = await moveTo(top, bottom.uid).expect(400);
    expect(response.body.message).toMatch(/descendants/);
    const after = await service.request.get(`/projects/${top.uid}`).set('Authorization', admin()).expect(200);
    expect(after.body.parent_uid).toBe(root);
  });

  it('refuses a parent that does not exist with 400 invalid parent project', async () => {
    const project = await createProject(service, { parent_uid: root });
    const response = await moveTo(project, '00000000-0000-4000-8000-000000000000').expect(400);
    expect(response.body.message).toBe('invalid parent project');
  });

  it('refuses an empty parent_uid for a project that is not the root', async () => {
    const project = await createProject(service, { parent_uid: root });
    const response = await moveTo(project, '').expect(400);
    expect(response.body.message).toBe('parent_uid: is required');
  });

  it('refuses a parent_uid that is not a UUID', async () => {
    const project = await createProject(service, { parent_uid: root });
    await moveTo(project, 'abc').expect(400);
  });
});

describe('deleting in a hierarchy', () => {
  it('refuses to delete a project that still has children', async () => {
    const parent = await createProject(service, { parent_uid: root });
    const child = await createProject(service, { parent_uid: parent.uid });
    const response = await service.request
      .delete(`/projects/${parent.uid}`)
      .set('Authorization', admin())
      .expect(409);
    expect(response.body).toEqual({ code: '409', message: 'the project still has child projects' });
    await service.request.get(`/projects/${parent.uid}`).set('Authorization', admin()).expect(200);
    await service.request.delete(`/projects/${child.uid}`).set('Authorization', admin()).expect(204);
    await service.request.delete(`/projects/${parent.uid}`).set('Authorization', admin()).expect(204);
  });

  it('frees the slug of a deleted project', async () => {
    const slug = uniqueSlug();
    const project = await createProject(service, { parent_uid: root, slug });
    await service.request.delete(`/projects/${project.uid}`).set('Authorization', admin()).expect(204);
    await createProject(service, { parent_uid: root, slug });
  });
});

describe('concurrent re-parenting', () => {
  it('never lets two opposite moves create a cycle', async () => {
    for (let round = 0; round < 5; round += 1) {
      const first = await createProject(service, { parent_uid: root });
      const second = await createProject(service, { parent_uid: root });
      const [moveFirst, moveSecond] = await Promise.all([
        moveTo(first, second.uid),
        moveTo(second, first.uid),
      ]);
      expect([moveFirst.status, moveSecond.status].sort()).toEqual([200, 400]);
    }
  });
});

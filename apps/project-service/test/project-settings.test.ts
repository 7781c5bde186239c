import { useProjectService } from './app';
import { admin, createProject, rootUid } from './project-fixtures';

const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

const MISSING_UID = '00000000-0000-4000-8000-000000000000';

describe('project settings', () => {
  it('returns the settings with their own ETag', async () => {
    const created = await createProject(service, {
      parent_uid: root,
      mission_statement: 'm',
      announcement_date: '2024-02-29',
      writers: [{ username: 'w1' }, { username: 'w2', email: 'w2@example.com' }],
    });
    const response = await service.request
      .get(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    expect(response.body).toEqual({
      uid: created.uid,
      announcement_date: '2024-02-29',
      mission_statement: 'm',
      // A member's unset fields and the empty lists are left out.
      writers: [{ username: 'w1' }, { username: 'w2', email: 'w2@example.com' }],
      created_at: created.created_at,
      updated_at: expect.any(String),
    });
    expect(response.headers['etag']).toMatch(/^"[^"]+"$/);
  });

  it('replaces the settings, keeps list order, answers the new ETag and leaves the base ETag unchanged', async () => {
    const created = await createProject(service, { parent_uid: root, writers: [{ username: 'old' }] });
    const base = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const settings = await service.request
      .get(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    const auditors = [{ username: 'zed' }, { username: 'amy' }, { username: 'kim' }];
    const response = await service.request
      .put(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .set('If-Match', settings.headers['etag'] as string)
      .send({ auditors, mission_statement: 'new mission' })
      .expect(200);
    expect(response.body).not.toHaveProperty('writers');
    expect(response.body.auditors.map((user: { username: string }) => user.username)).toEqual([
      'zed',
      'amy',
      'kim',
    ]);
    expect(response.body.mission_statement).toBe('new mission');
    expect(response.headers['etag']).not.toBe(settings.headers['etag']);
    const baseAfter = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    expect(baseAfter.headers['etag']).toBe(base.headers['etag']);
    expect(baseAfter.body.updated_at).toBe(base.body.updated_at);
  });

  it('replaces member lists that shrink, grow and reorder, each list on its own, keeping every field', async () => {
    const created = await createProject(service, {
      parent_uid: root,
      writers: [{ username: 'w1', name: 'One' }, { username: 'w2' }, { username: 'w3' }],
      auditors: [{ username: 'a1' }],
      meeting_coordinators: [{ username: 'm1', email: 'm1@example.com' }, { username: 'm2' }],
    });
    const put = async (body: object) => {
      const current = await service.request
        .get(`/projects/${created.uid}/settings`)
        .set('Authorization', admin())
        .expect(200);
      return service.request
        .put(`/projects/${created.uid}/settings`)
        .set('Authorization', admin())
        .set('If-Match', current.headers['etag'] as string)
        .send(body)
        .expect(200);
    };
    const names = (list: { username: string }[]) => list.map((user) => user.username);
    await put({
      writers: [{ username: 'w3' }, { username: 'w1', avatar: 'https://example.com/w1.png' }],
      auditors: [{ username: 'a1' }, { username: 'a2' }, { username: 'a3' }],
      meeting_coordinators: [{ username: 'm2', name: 'Two' }],
    });
    const after = await service.request
      .get(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    expect(names(after.body.writers)).toEqual(['w3', 'w1']);
    expect(after.body.writers[1]).toEqual({ username: 'w1', avatar: 'https://example.com/w1.png' });
    expect(names(after.body.auditors)).toEqual(['a1', 'a2', 'a3']);
    expect(after.body.meeting_coordinators).toEqual([{ username: 'm2', name: 'Two' }]);
    const emptied = await put({});
    expect([emptied.body.writers, emptied.body.auditors, emptied.body.meeting_coordinators]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('answers 304 for settings when If-None-Match is current', async () => {
    const created = await createProject(service, { parent_uid: root });
    const first = await service.request
      .get(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    await service.request
      .get(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .set('If-None-Match', first.headers['etag'] as string)
      .expect(304);
  });

  it('answers 412 when the settings If-Match is stale, even if it is the current base ETag', async () => {
    const created = await createProject(service, { parent_uid: root });
    const base = await service.request
      .get(`/projects/${created.uid}`)
      .set('Authorization', admin())
      .expect(200);
    await service.request
      .put(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .set('If-Match', base.headers['etag'] as string)
      .send({})
      .expect(412);
  });

  it('answers 404 for settings of a project that does not exist', async () => {
    await service.request.get(`/projects/${MISSING_UID}/settings`).set('Authorization', admin()).expect(404);
    await service.request
      .put(`/projects/${MISSING_UID}/settings`)
      .set('Authorization', admin())
      .send({})
      .expect(404);
  });

  it('answers 400 for a settings body with a bad field', async () => {
    const created = await createProject(service, { parent_uid: root });
    const response = await service.request
      .put(`/projects/${created.uid}/settings`)
      .set('Authorization', admin())
      .send({ writers: [{ username: 'x', email: 'not-an-email' }] })
      .expect(400);
    expect(response.body.message).toBe('writers[0].email: must be a valid email');
  });
});

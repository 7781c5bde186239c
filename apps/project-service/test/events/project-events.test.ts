import { deleteStream, natsUrlForTests, uniqueEventNames, watchEvents, type EventWatch } from '@repo/testing';
import { TEST_EVENTS_SOURCE, useProjectService } from '../app';
import { admin, createProject, rootUid, uniqueSlug } from '../project-fixtures';

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('project events');
const service = useProjectService(undefined, {
  events: { natsUrl, stream: names.stream, subjectPrefix: names.subjectPrefix },
});

let watch: EventWatch;
let root: string;

beforeAll(async () => {
  root = await rootUid(service);
  // The stream is created once the relay has connected: the first write makes sure of it.
  await createProject(service, { parent_uid: root });
  watch = await watchEvents(natsUrl, { stream: names.stream });
  await watch.waitFor(1);
});

afterAll(async () => {
  await watch?.close();
  await deleteStream(natsUrl, names.stream);
});

function eventsOf(uid: string) {
  return watch.events.filter((received) => received.event['subject'] === uid);
}

describe('project change events', () => {
  it('publishes project.created with the POST response as data', async () => {
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('X-Request-Id', 'create-request-1')
      .send({ slug: uniqueSlug(), name: 'Evented', description: 'd', parent_uid: root })
      .expect(201);
    const uid = (response.body as { uid: string }).uid;
    await watch.waitFor(() => eventsOf(uid).length >= 1);
    const [received] = eventsOf(uid);
    expect(received?.subject).toBe(`${names.subjectPrefix}projects.${uid}.created`);
    expect(received?.contentType).toBe('application/cloudevents+json');
    expect(received?.msgId).toBe(received?.event['id']);
    expect(received?.event).toMatchObject({
      specversion: '1.0',
      type: 'project.created',
      source: TEST_EVENTS_SOURCE,
      subject: uid,
      datacontenttype: 'application/json',
      actor: 'admin-alice',
      requestid: 'create-request-1',
      sequence: '1',
      data: response.body,
    });
  });

  it('X-Sync: true answers published once the event is acknowledged', async () => {
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('X-Sync', 'true')
      .send({ slug: uniqueSlug(), name: 'Synced', description: 'd', parent_uid: root })
      .expect(201);
    expect(response.headers['x-sync-status']).toBe('published');
  });

  it('publishes project.updated and project.settings_updated with the PUT responses as data', async () => {
    const project = await createProject(service, {
      parent_uid: root,
      writers: [{ username: 'first' }, { username: 'second' }],
      auditors: [{ username: 'auditor' }],
    });
    const settingsBefore = await service.request
      .get(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    const settings = await service.request
      .put(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .set('If-Match', settingsBefore.headers['etag'] as string)
      .send({
        mission_statement: 'Restated',
        announcement_date: '2026-03-01',
        writers: [{ username: 'third', name: 'Third', email: 'third@example.org' }],
        meeting_coordinators: [{ username: 'coordinator' }],
      })
      .expect(200);
    const settingsAfter = await service.request
      .get(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    expect(settings.body).toEqual(settingsAfter.body);
    expect(settings.headers['etag']).toBe(settingsAfter.headers['etag']);

    const baseBefore = await service.request
      .get(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const base = await service.request
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .set('If-Match', baseBefore.headers['etag'] as string)
      .send({ ...(baseBefore.body as object), name: 'Renamed', funding_model: ['Membership'] })
      .expect(200);
    const baseAfter = await service.request
      .get(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .expect(200);
    expect(base.body).toEqual(baseAfter.body);
    expect(base.headers['etag']).toBe(baseAfter.headers['etag']);

    await watch.waitFor(() => eventsOf(project.uid).length >= 3);
    const [, settingsEvent, baseEvent] = eventsOf(project.uid);
    expect(settingsEvent?.event).toMatchObject({
      type: 'project.settings_updated',
      sequence: '2',
      data: { ...(settings.body as object), previous: settingsBefore.body },
    });
    expect(baseEvent?.event).toMatchObject({ type: 'project.updated', sequence: '3', data: base.body });
  });

  it('a write that moves the project records its event with the response as data; a stale one none', async () => {
    const project = await createProject(service, { parent_uid: root });
    const parent = await createProject(service, { parent_uid: root });
    const before = await service.request
      .get(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const moved = await service.request
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .set('If-Match', before.headers['etag'] as string)
      .send({ ...(before.body as object), parent_uid: parent.uid })
      .expect(200);
    expect((moved.body as { parent_uid: string }).parent_uid).toBe(parent.uid);
    await service.request
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .set('If-Match', before.headers['etag'] as string)
      .send({ ...(before.body as object), name: 'Stale' })
      .expect(412);
    await watch.waitFor(() => eventsOf(project.uid).length >= 2);
    // The stale write would have been published by now, after the move's (the same resource, in order).
    await service.request
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .set('If-Match', moved.headers['etag'] as string)
      .set('X-Sync', 'true')
      .send({ ...(moved.body as object), name: 'After' })
      .expect(200);
    await watch.waitFor(() => eventsOf(project.uid).length >= 3);
    expect(
      eventsOf(project.uid).map((received) => [received.event['type'], received.event['sequence']]),
    ).toEqual([
      ['project.created', '1'],
      ['project.updated', '2'],
      ['project.updated', '3'],
    ]);
    expect(eventsOf(project.uid)[1]?.event['data']).toEqual(moved.body);
  });

  it('concurrent settings writes without If-Match: each event holds its response, in commit order', async () => {
    const project = await createProject(service, { parent_uid: root, writers: [{ username: 'first' }] });
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        service.request
          .put(`/projects/${project.uid}/settings`)
          .set('Authorization', admin())
          .send({ writers: Array.from({ length: index % 3 }, (_, n) => ({ username: `w-${index}-${n}` })) })
          .expect(200),
      ),
    );
    await watch.waitFor(() => eventsOf(project.uid).length >= 9);
    const updates = eventsOf(project.uid).slice(1);
    const bySequence = new Map(updates.map((received) => [received.event['sequence'], received.event]));
    for (const response of responses) {
      const event = updates.find(
        (received) => received.event['requestid'] === response.headers['x-request-id'],
      );
      expect(event?.event['data']).toMatchObject(response.body as object);
    }
    // Each write's `previous` is the settings the write before it (by sequence) left.
    for (let sequence = 3; sequence <= 9; sequence++) {
      const data = bySequence.get(String(sequence))?.['data'] as { previous: unknown };
      const { previous: _previous, ...before } = bySequence.get(String(sequence - 1))?.['data'] as {
        previous: unknown;
      };
      expect(data.previous).toEqual(before);
    }
    const after = await service.request
      .get(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    const { previous: _last, ...last } = bySequence.get('9')?.['data'] as { previous: unknown };
    expect(after.body).toEqual(last);
  });
});

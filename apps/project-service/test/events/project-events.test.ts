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
});

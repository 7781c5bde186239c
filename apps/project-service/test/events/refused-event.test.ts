import { deleteStream, natsUrlForTests, uniqueEventNames, watchEvents } from '@repo/testing';
import { useProjectService } from '../app';
import { admin, createProject, rootUid } from '../project-fixtures';

// An event NATS refuses (larger than the server's max_payload: 1 MB by default, while a settings
// event carries the settings twice, `data` and `previous`) holds back its own resource's events,
// in order, and nothing else: no outage mode, the other resources' events and X-Sync go on.

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('refused event');
const service = useProjectService(undefined, {
  events: { natsUrl, stream: names.stream, subjectPrefix: names.subjectPrefix, xSyncTimeoutMs: 3000 },
});

afterAll(() => deleteStream(natsUrl, names.stream));

/** Settings of about 600 kB: 300 writers with long avatar URLs. */
function largeSettings(tag: string) {
  return {
    mission_statement: tag,
    writers: Array.from({ length: 300 }, (_, index) => ({
      username: `writer-${index}`,
      avatar: `https://avatars.example.org/${tag}/${index}/${'a'.repeat(1900)}`,
    })),
  };
}

it('publishes the other resources while one resource holds an event too large for NATS', async () => {
  const root = await rootUid(service);
  const large = await createProject(service, { parent_uid: root });
  const other = await createProject(service, { parent_uid: root });
  const watch = await watchEvents(natsUrl, { stream: names.stream });
  try {
    await watch.waitFor(2);
    // The first large write's event (~600 kB, its `previous` small) goes out; the second's (~1.2 MB) cannot.
    await service.request
      .put(`/projects/${large.uid}/settings`)
      .set('Authorization', admin())
      .set('X-Sync', 'true')
      .send(largeSettings('first'))
      .expect(200)
      .expect('X-Sync-Status', 'published');
    await service.request
      .put(`/projects/${large.uid}/settings`)
      .set('Authorization', admin())
      .set('X-Sync', 'true')
      .send(largeSettings('second'))
      .expect(200)
      .expect('X-Sync-Status', 'pending');
    // Another project's writes are published at once, with X-Sync, time and again.
    for (const statement of ['one', 'two', 'three']) {
      const started = Date.now();
      await service.request
        .put(`/projects/${other.uid}/settings`)
        .set('Authorization', admin())
        .set('X-Sync', 'true')
        .send({ mission_statement: statement })
        .expect(200)
        .expect('X-Sync-Status', 'published');
      // Not after an outage's backoff: well within a second.
      expect(Date.now() - started).toBeLessThan(1000);
    }
    // Held back in order: a later write of the large project waits behind the refused one.
    await service.request
      .put(`/projects/${large.uid}/settings`)
      .set('Authorization', admin())
      .send({ mission_statement: 'small again' })
      .expect(200);
    const events = await watch.settled(1000);
    const ofLarge = events.filter((received) => received.event['subject'] === large.uid);
    expect(ofLarge.map((received) => received.event['sequence'])).toEqual(['1', '2']);
    const ofOther = events.filter((received) => received.event['subject'] === other.uid);
    expect(ofOther.map((received) => received.event['sequence'])).toEqual(['1', '2', '3', '4']);
    const metrics = await service.request.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/events_publish_refused_total\{type="project\.settings_updated"\} [1-9]/);
    expect(metrics.text).toMatch(/events_outbox_depth 2\b/);
  } finally {
    await watch.close();
  }
});

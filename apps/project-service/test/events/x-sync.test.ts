import {
  deleteStream,
  freePort,
  natsUrlForTests,
  uniqueEventNames,
  useTestApp,
  watchEvents,
  type EventWatch,
  type TestApp,
} from '@repo/testing';
import { createTestApp, testAuthConfig, useProjectService } from '../app';
import { admin, createProject, rootUid, uniqueSlug } from '../project-fixtures';
import { openStreamReader, waitForEventsOf, type StreamReader } from './event-assertions';

// X-Sync (docs/events.md): `true` waits for the write's PubAck and says how it went in
// X-Sync-Status; `false` or absent, and failing writes, carry no X-Sync-Status; events off answer
// `disabled`; NATS unreachable answers `pending` within the bound, the write committed.

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('x sync');
const service = useProjectService(undefined, {
  events: { natsUrl, stream: names.stream, subjectPrefix: names.subjectPrefix },
});
/** The same service with events off (NATS_URL unset). */
const eventsOff = useProjectService();
/** Events on, but nobody listens at its NATS URL. */
const UNREACHABLE_SYNC_MS = 300;
const unreachable = useTestApp(async (source) =>
  createTestApp(source, testAuthConfig, {
    events: {
      natsUrl: `nats://127.0.0.1:${await freePort()}`,
      stream: `${names.stream}_UNREACHABLE`,
      subjectPrefix: names.subjectPrefix,
      xSyncTimeoutMs: UNREACHABLE_SYNC_MS,
      publishTimeoutMs: 200,
    },
  }),
);

let watch: EventWatch;
/** Open before the writes: a read right after a response sees the stream as it was then. */
let reader: StreamReader;

beforeAll(async () => {
  watch = await watchEvents(natsUrl, { stream: names.stream });
  reader = await openStreamReader(natsUrl, names.stream);
});

afterAll(async () => {
  await reader?.close();
  await watch?.close();
  await deleteStream(natsUrl, names.stream);
});

type Write = 'create' | 'update base' | 'update settings' | 'delete';
const WRITES: Write[] = ['create', 'update base', 'update settings', 'delete'];
const ACTIONS: Record<Write, string> = {
  create: 'created',
  'update base': 'updated',
  'update settings': 'settings_updated',
  delete: 'deleted',
};
const SUCCESS: Record<Write, number> = {
  create: 201,
  'update base': 200,
  'update settings': 200,
  delete: 204,
};

/**
 * Sends one write of kind `write` to `app` (with `sync` as X-Sync, none when undefined); for all but
 * create, on a fresh project made first.
 */
async function sendWrite(app: TestApp, write: Write, sync: string | undefined) {
  const root = await rootUid(app);
  const withSync = <T extends { set(name: string, value: string): T }>(test: T) =>
    sync === undefined ? test : test.set('X-Sync', sync);
  const requestId = `${write.replace(' ', '-')}-${uniqueSlug('req')}`;
  if (write === 'create') {
    const started = performance.now();
    const response = await withSync(
      app.request
        .post('/projects')
        .set('Authorization', admin())
        .set('X-Request-Id', requestId)
        .send({ slug: uniqueSlug('sync'), name: 'Synced', description: '', parent_uid: root }),
    );
    const answeredAt = Date.now();
    return {
      response,
      uid: (response.body as { uid?: string }).uid,
      ms: performance.now() - started,
      answeredAt,
    };
  }
  const project = await createProject(app, { parent_uid: root });
  const started = performance.now();
  const response = await withSync(
    write === 'update base'
      ? app.request
          .put(`/projects/${project.uid}`)
          .set('Authorization', admin())
          .set('X-Request-Id', requestId)
          .send({ slug: project.slug, name: 'Renamed', description: 'x', parent_uid: root })
      : write === 'update settings'
        ? app.request
            .put(`/projects/${project.uid}/settings`)
            .set('Authorization', admin())
            .set('X-Request-Id', requestId)
            .send({ mission_statement: 'synced', writers: [{ username: 'w' }] })
        : app.request
            .delete(`/projects/${project.uid}`)
            .set('Authorization', admin())
            .set('X-Request-Id', requestId),
  );
  return { response, uid: project.uid, ms: performance.now() - started, answeredAt: Date.now() };
}

describe('X-Sync: true with events on', () => {
  it.each(WRITES)('%s answers published, its event already in the stream', async (write) => {
    const { response, uid, answeredAt } = await sendWrite(service, write, 'true');
    // Read from JetStream before anything else happens: the PubAck came before the response.
    const subject = `${names.subjectPrefix}projects.${uid}.${ACTIONS[write]}`;
    const stored = await reader.lastOn(subject);
    expect(response.status).toBe(SUCCESS[write]);
    expect(response.headers['x-sync-status']).toBe('published');
    expect(stored?.event['requestid']).toBe(response.headers['x-request-id']);
    expect(stored?.msgId).toBe(stored?.event['id']);
    // Stored by JetStream (its clock: this machine's) before the response came back.
    expect(stored?.storedAt).toBeLessThanOrEqual(answeredAt);
  });

  it('counts the event in the stream by the time a create answers', async () => {
    await watch.settled();
    const before = await reader.messages();
    const { response } = await sendWrite(service, 'create', 'true');
    const after = await reader.messages();
    expect(response.headers['x-sync-status']).toBe('published');
    expect(after).toBe(before + 1);
  });
});

describe.each([
  ['false', 'false'],
  ['absent', undefined],
])('X-Sync %s', (_name, sync) => {
  it.each(WRITES)('%s answers without X-Sync-Status, and its event is published anyway', async (write) => {
    const { response, uid } = await sendWrite(service, write, sync);
    expect(response.status).toBe(SUCCESS[write]);
    expect(response.headers['x-sync-status']).toBeUndefined();
    const events = await waitForEventsOf(watch, uid as string, write === 'create' ? 1 : 2);
    expect(events.at(-1)?.subject).toBe(`${names.subjectPrefix}projects.${uid}.${ACTIONS[write]}`);
  });
});

describe('X-Sync: true on a write that fails', () => {
  it('carries no X-Sync-Status (409, 412, 400, 404)', async () => {
    const root = await rootUid(service);
    const project = await createProject(service, { parent_uid: root });
    const failures = [
      service.request
        .post('/projects')
        .send({ slug: project.slug, name: 'dup', description: '', parent_uid: root })
        .expect(409),
      service.request
        .put(`/projects/${project.uid}`)
        .set('If-Match', '"b7"')
        .send({ slug: project.slug, name: 'stale', description: '', parent_uid: root })
        .expect(412),
      service.request.put(`/projects/${project.uid}/settings`).send({ writers: 'not a list' }).expect(400),
      service.request.delete('/projects/00000000-0000-4000-8000-000000000000').expect(404),
      service.request.delete(`/projects/${root}`).expect(400),
    ];
    for (const request of failures) {
      const response = await request.set('Authorization', admin()).set('X-Sync', 'true');
      expect(response.headers['x-sync-status']).toBeUndefined();
    }
  });
});

describe('X-Sync with events off', () => {
  it.each(WRITES)('%s answers disabled', async (write) => {
    const { response } = await sendWrite(eventsOff, write, 'true');
    expect(response.status).toBe(SUCCESS[write]);
    expect(response.headers['x-sync-status']).toBe('disabled');
  });

  it('answers no X-Sync-Status to X-Sync: false', async () => {
    const { response } = await sendWrite(eventsOff, 'update base', 'false');
    expect(response.status).toBe(200);
    expect(response.headers['x-sync-status']).toBeUndefined();
  });
});

describe('X-Sync: true with NATS unreachable', () => {
  it.each(WRITES)('%s succeeds with pending within the bound, and is stored', async (write) => {
    const { response, uid, ms } = await sendWrite(unreachable, write, 'true');
    expect(response.status).toBe(SUCCESS[write]);
    expect(response.headers['x-sync-status']).toBe('pending');
    // The bound, plus what the write itself takes on a busy machine.
    expect(ms).toBeLessThan(UNREACHABLE_SYNC_MS + 1500);
    // Stored: GET shows what the write answered (a create answers ProjectFull, a superset of the
    // base; a deleted project is gone).
    const readBack = write === 'update settings' ? `/projects/${uid}/settings` : `/projects/${uid}`;
    const stored = await unreachable.request.get(readBack).set('Authorization', admin());
    expect(stored.status).toBe(write === 'delete' ? 404 : 200);
    expect(response.body).toMatchObject(write === 'delete' ? {} : (stored.body as object));
  });

  it('answers writes without X-Sync as usual', async () => {
    const { response } = await sendWrite(unreachable, 'create', undefined);
    expect(response.status).toBe(201);
    expect(response.headers['x-sync-status']).toBeUndefined();
  });
});

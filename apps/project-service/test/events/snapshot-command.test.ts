import {
  deleteStream,
  natsUrlForTests,
  streamInfo,
  uniqueEventNames,
  watchEvents,
  type EventWatch,
} from '@repo/testing';
import { connectPrisma, type Database } from '../../src/db/database';
import type { SnapshotReader } from '../../src/db/outbox';
import { snapshotReaders } from '../../src/events/command-config';
import { runReplay } from '../../src/events/replay-command';
import { runSnapshot } from '../../src/events/snapshot-command';
import { createLogger } from '../../src/logger';
import { TEST_EVENTS_SOURCE, testEventsSettings, useProjectService } from '../app';
import { admin, createProject, rootUid, uniqueSlug } from '../project-fixtures';
import { currentProjects, foldProjects, snapshotsOnly } from './project-fold';
import { DATA_RENDERERS } from '../../src/events/data-renderers';

// The snapshot command (and a replay) against a running service with events on: a consumer that
// starts from nothing rebuilds every project from the stream.

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('snapshot command');
const events = { natsUrl, stream: names.stream, subjectPrefix: names.subjectPrefix };
const service = useProjectService(undefined, { events });

let database: Database;
let root: string;
const watches: EventWatch[] = [];

beforeAll(async () => {
  // The command's own connection to the service's database, as the command opens it.
  database = connectPrisma(service.database);
  root = await rootUid(service);
});

afterAll(async () => {
  for (const watch of watches) await watch.close();
  await database?.close();
  await deleteStream(natsUrl, names.stream);
});

/** What the command passes runSnapshot and runReplay: the service's settings, its database. */
function commandOptions() {
  return {
    settings: testEventsSettings(events),
    prisma: database.prisma,
    logger: createLogger('silent'),
    source: TEST_EVENTS_SOURCE,
    renderers: DATA_RENDERERS,
    deadline: Date.now() + 30_000,
  };
}

/** A consumer starting from the stream's first event, once it holds every recorded event. */
async function freshConsumer() {
  const [{ recorded } = { recorded: 0 }] = await database.prisma.$queryRaw<{ recorded: number }[]>`
    SELECT count(*)::int AS recorded FROM event_outbox`;
  const watch = await watchEvents(natsUrl, { stream: names.stream });
  watches.push(watch);
  await watch.waitFor((received) => new Set(received.map((e) => e.msgId)).size >= recorded, 20_000);
  return watch;
}

async function updateBase(uid: string, fields: Record<string, unknown>) {
  const current = await service.request.get(`/projects/${uid}`).set('Authorization', admin()).expect(200);
  const { slug, name, description, parent_uid } = current.body as Record<string, string>;
  return service.request
    .put(`/projects/${uid}`)
    .set('Authorization', admin())
    .send({ slug, name, description, parent_uid, ...fields });
}

describe('the snapshot command', () => {
  it('records a project.snapshot of every project; a fresh consumer rebuilds them all from the stream', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await createProject(service, {
          parent_uid: root,
          name: `Snapshot ${i}`,
          writers: [{ username: `writer-${i}`, name: `Writer ${i}` }],
        }),
      );
    }
    await updateBase(made[0]!.uid, { name: 'Renamed before the snapshot' }).then((r) =>
      expect(r.status).toBe(200),
    );
    await service.request
      .put(`/projects/${made[1]!.uid}/settings`)
      .set('Authorization', admin())
      .send({ mission_statement: 'changed', auditors: [{ username: 'aud' }] })
      .expect(200);
    await service.request.delete(`/projects/${made[2]!.uid}`).set('Authorization', admin()).expect(204);

    const current = await currentProjects(service);
    const outcome = await runSnapshot({ ...commandOptions(), readers: snapshotReaders() });
    expect(outcome).toMatchObject({ recorded: { 'project.snapshot': current.size }, pending: 0 });

    const watch = await freshConsumer();
    // From the snapshot events alone (the consumer's index rebuilt from scratch)...
    expect(snapshotsOnly(watch.events)).toEqual(current);
    // ... and folding every event: the same, every snapshot agreeing with the events before it.
    const fold = foldProjects(watch.events);
    expect(fold.sequenceProblems).toEqual([]);
    expect(fold.snapshotMismatches).toEqual([]);
    expect(fold.projects).toEqual(current);
    const snapshot = watch.events.find((e) => e.event['type'] === 'project.snapshot');
    expect(snapshot?.subject).toMatch(
      new RegExp(`^${names.subjectPrefix.replace('.', '\\.')}projects\\.[0-9a-f-]+\\.snapshot$`),
    );
    expect(snapshot?.event).toMatchObject({ source: TEST_EVENTS_SOURCE, specversion: '1.0' });
    // A system change: no actor, no request id.
    expect(snapshot?.event).not.toHaveProperty('actor');
    expect(snapshot?.event).not.toHaveProperty('requestid');
  });

  it('runs again: each project gets a newer snapshot, equal to the first', async () => {
    const current = await currentProjects(service);
    const outcome = await runSnapshot({ ...commandOptions(), readers: snapshotReaders(), batchSize: 2 });
    expect(outcome).toMatchObject({ recorded: { 'project.snapshot': current.size }, pending: 0 });
    const watch = await freshConsumer();
    for (const uid of current.keys()) {
      const snapshots = watch.events.filter(
        (e) => e.event['subject'] === uid && e.event['type'] === 'project.snapshot',
      );
      expect(snapshots).toHaveLength(2);
      expect(Number(snapshots[1]!.event['sequence'])).toBe(Number(snapshots[0]!.event['sequence']) + 1);
      expect(snapshots[1]!.event['data']).toEqual(snapshots[0]!.event['data']);
    }
    expect(foldProjects(watch.events).projects).toEqual(current);
  });

  it('keeps the fold consistent with writes running during the snapshot', async () => {
    const made = [];
    for (let i = 0; i < 12; i++)
      made.push(await createProject(service, { parent_uid: root, name: `Busy ${i}` }));
    const target = made[5]!.uid;
    // A write sent from inside the snapshot's transaction (its batch's sequences locked, before its
    // state is read): it cannot commit before the batch does, so it is numbered after the snapshot.
    let during: Promise<{ status: number }> | undefined;
    const [projects] = snapshotReaders() as [SnapshotReader];
    const reader: SnapshotReader = {
      ...projects,
      async read(transaction, ids) {
        if (ids.includes(target) && !during) {
          during = updateBase(target, { name: 'Written during the snapshot' }).then((r) => r);
          // Let the write start (its request reaches the database) before the state is read.
          await new Promise((resolve) => setImmediate(resolve));
        }
        return projects.read(transaction, ids);
      },
    };
    // More writes at the same time, on the other projects.
    const writes = made.map((project, i) =>
      i === 5
        ? Promise.resolve(200)
        : updateBase(project.uid, { name: `Busy ${i} renamed` }).then((r) => r.status),
    );
    const outcome = await runSnapshot({ ...commandOptions(), readers: [reader], batchSize: 3 });
    expect(await Promise.all(writes)).toEqual(made.map(() => 200));
    expect((await during)?.status).toBe(200);
    expect(outcome.pending).toBe(0);

    const watch = await freshConsumer();
    const fold = foldProjects(watch.events);
    expect(fold.sequenceProblems).toEqual([]);
    expect(fold.snapshotMismatches).toEqual([]);
    expect(fold.projects).toEqual(await currentProjects(service));
    // The write inside the snapshot's transaction comes after the snapshot, which shows the project before it.
    const ofTarget = watch.events.filter((e) => e.event['subject'] === target);
    const lastSnapshot = ofTarget.filter((e) => e.event['type'] === 'project.snapshot').at(-1)!;
    const written = ofTarget.find(
      (e) =>
        e.event['type'] === 'project.updated' &&
        (e.event['data'] as { name: string }).name === 'Written during the snapshot',
    )!;
    expect(Number(written.event['sequence'])).toBe(Number(lastSnapshot.event['sequence']) + 1);
    expect((lastSnapshot.event['data'] as { name: string }).name).toBe('Busy 5');
  });

  it('gives a project as GET /projects/{uid} answers, its settings as GET /projects/{uid}/settings answers', async () => {
    const { uid } = await createProject(service, { parent_uid: root, name: 'Settings changed last' });
    await service.request
      .put(`/projects/${uid}/settings`)
      .set('Authorization', admin())
      .send({ mission_statement: 'changed after the base', writers: [{ username: 'later' }] })
      .expect(200);
    const base = await service.request.get(`/projects/${uid}`).set('Authorization', admin()).expect(200);
    const settings = await service.request
      .get(`/projects/${uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    // The settings changed after the base: the two parts' updated_at differ.
    const baseBody = base.body as { updated_at: string };
    const settingsBody = settings.body as { updated_at: string };
    expect(Date.parse(settingsBody.updated_at)).toBeGreaterThan(Date.parse(baseBody.updated_at));

    await runSnapshot({ ...commandOptions(), readers: snapshotReaders() });
    const watch = await freshConsumer();
    const snapshot = watch.events
      .filter((e) => e.event['subject'] === uid && e.event['type'] === 'project.snapshot')
      .at(-1);
    expect(snapshot?.event['data']).toEqual({ ...baseBody, settings: settingsBody });
  });
});

describe('the replay command against the running service', () => {
  it('republishes the retained events with their ids; the stream drops them as duplicates', async () => {
    await createProject(service, { parent_uid: root, slug: uniqueSlug('replayed') });
    const watch = await freshConsumer();
    const before = await streamInfo(natsUrl, names.stream);
    expect(before.messages).toBe(new Set(watch.events.map((e) => e.msgId)).size);
    const [first] = await database.prisma.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM event_outbox ORDER BY position LIMIT 1`;
    const outcome = await runReplay({ ...commandOptions(), start: { fromId: first!.id } });
    const [{ retained } = { retained: 0 }] = await database.prisma.$queryRaw<{ retained: number }[]>`
      SELECT count(*)::int AS retained FROM event_outbox WHERE published_at IS NOT NULL`;
    expect(outcome).toMatchObject({ requeued: retained, pending: 0 });
    // The running service's relay may publish some of them: together, every one.
    expect(outcome!.published).toBeLessThanOrEqual(retained);
    // Within the duplicate window (2 minutes here) JetStream acknowledges them without storing them again.
    expect((await streamInfo(natsUrl, names.stream)).messages).toBe(before.messages);
  });

  it('says so when --from-id names no retained event', async () => {
    await expect(
      runReplay({ ...commandOptions(), start: { fromId: '00000000-0000-4000-8000-000000000000' } }),
    ).resolves.toBeUndefined();
  });
});

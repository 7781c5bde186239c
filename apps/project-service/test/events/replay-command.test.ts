import {
  deleteStream,
  natsUrlForTests,
  uniqueEventNames,
  watchEvents,
  type EventWatch,
  type ReceivedEvent,
} from '@repo/testing';
import { connectPrisma, type Database } from '../../src/db/database';
import { runReplay } from '../../src/events/replay-command';
import { createLogger } from '../../src/logger';
import { TEST_EVENTS_SOURCE, testEventsSettings, useProjectService } from '../app';
import { admin, createProject, rootUid } from '../project-fixtures';
import { currentProjects, distinctEvents, foldProjects } from './project-fold';
import { DATA_RENDERERS } from '../../src/events/data-renderers';

// The replay command against a running service whose stream keeps ids for 1 s only: past that
// window the replayed events are stored again, so the stream shows what was republished.

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('replay command');
const DUPLICATE_WINDOW_MS = 1000;
const events = {
  natsUrl,
  stream: names.stream,
  subjectPrefix: names.subjectPrefix,
  duplicateWindowMs: DUPLICATE_WINDOW_MS,
};
const service = useProjectService(undefined, { events });

let database: Database;
let watch: EventWatch;
let root: string;

/** The projects as the API shows them, but the root: made before events were on, it has no event. */
async function projectsWithEvents() {
  const projects = await currentProjects(service);
  projects.delete(root);
  return projects;
}

interface OutboxEntry {
  id: string;
  occurredAt: Date;
}

async function outbox(): Promise<OutboxEntry[]> {
  return database.prisma.$queryRaw<OutboxEntry[]>`
    SELECT id::text AS id, occurred_at AS "occurredAt" FROM event_outbox ORDER BY position`;
}

/** Resolves once `condition` holds (checked every 50 ms), or fails after `timeoutMs`. */
async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every recorded event is in the stream and the duplicate window of the last one has passed. */
async function allPublishedAndForgotten(): Promise<void> {
  const recorded = (await outbox()).length;
  await watch.waitFor((received) => new Set(received.map((e) => e.msgId)).size >= recorded);
  const [{ last } = { last: null }] = await database.prisma.$queryRaw<{ last: Date | null }[]>`
    SELECT max(published_at) AS last FROM event_outbox`;
  const forgotten = (last?.getTime() ?? 0) + DUPLICATE_WINDOW_MS + 250;
  await until(async () => Date.now() > forgotten, 'the duplicate window to pass');
}

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

/** The messages that arrived after the first `count`, once there are `count + more`. */
async function arrivedAfter(count: number, more: number): Promise<ReceivedEvent[]> {
  return (await watch.waitFor(count + more)).slice(count);
}

beforeAll(async () => {
  database = connectPrisma(service.database);
  root = await rootUid(service);
  const made = [];
  for (let i = 0; i < 3; i++)
    made.push(await createProject(service, { parent_uid: root, name: `Replayed ${i}` }));
  await service.request
    .put(`/projects/${made[0]!.uid}/settings`)
    .set('Authorization', admin())
    .send({ mission_statement: 'before the replay' })
    .expect(200);
  await service.request.delete(`/projects/${made[2]!.uid}`).set('Authorization', admin()).expect(204);
  watch = await watchEvents(natsUrl, { stream: names.stream });
});

afterAll(async () => {
  await watch?.close();
  await database?.close();
  await deleteStream(natsUrl, names.stream);
});

describe('the replay command', () => {
  it('--from-id republishes that event and every later one, with the same ids and contents', async () => {
    await allPublishedAndForgotten();
    const rows = await outbox();
    const from = rows[1]!;
    const expected = rows.slice(1).map((row) => row.id);
    const before = watch.events.length;

    const outcome = await runReplay({ ...commandOptions(), start: { fromId: from.id } });
    expect(outcome).toMatchObject({ requeued: expected.length, pending: 0 });

    const replayed = await arrivedAfter(before, expected.length);
    expect(replayed.map((e) => e.msgId).sort()).toEqual([...expected].sort());
    const original = new Map(watch.events.slice(0, before).map((e) => [e.msgId, e.event]));
    for (const e of replayed) {
      expect(e.msgId).toBe(e.event['id']);
      expect(e.event).toEqual(original.get(e.msgId));
    }
    // A consumer de-duplicating by id folds to the same projects as before the replay.
    expect(distinctEvents(watch.events)).toHaveLength(rows.length);
    expect(foldProjects(watch.events).projects).toEqual(await projectsWithEvents());
  });

  it('--since republishes the events recorded at or after that time', async () => {
    await allPublishedAndForgotten();
    const rows = await outbox();
    const since = rows[2]!.occurredAt;
    const expected = rows.filter((row) => row.occurredAt.getTime() >= since.getTime()).map((row) => row.id);
    const before = watch.events.length;

    const outcome = await runReplay({ ...commandOptions(), start: { since } });
    expect(outcome).toMatchObject({ requeued: expected.length, pending: 0 });
    const replayed = await arrivedAfter(before, expected.length);
    expect(replayed.map((e) => e.msgId).sort()).toEqual([...expected].sort());
    const fold = foldProjects(watch.events);
    expect(fold.sequenceProblems).toEqual([]);
    expect(fold.projects).toEqual(await projectsWithEvents());
  });
});

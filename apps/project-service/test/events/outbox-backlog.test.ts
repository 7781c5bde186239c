import { deleteStream, natsUrlForTests, querySource, uniqueEventNames, watchEvents } from '@repo/testing';
import { useProjectService } from '../app';
import { admin, createProject, rootUid } from '../project-fixtures';

// A long backlog of one resource (what an outage of NATS leaves behind a busy project) is published
// in order, round after round: claiming a round's events costs the same whatever the backlog, where
// a check of every pending event against every earlier one had a round outlast its transaction.

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('outbox backlog');
const service = useProjectService(undefined, {
  events: {
    natsUrl,
    stream: names.stream,
    subjectPrefix: names.subjectPrefix,
    relayTuning: { batchSize: 500 },
  },
});

afterAll(() => deleteStream(natsUrl, names.stream));

const BACKLOG = 10_000;

it(`publishes a backlog of ${BACKLOG} events of one project, in order, then the next write's`, async () => {
  const project = await createProject(service, { parent_uid: await rootUid(service) });
  const watch = await watchEvents(natsUrl, { stream: names.stream });
  try {
    await watch.waitFor(1);
    // The events an outage left behind: recorded (as a write records them, one sequence number each)
    // but never published.
    await querySource(
      service.database,
      `WITH numbers AS (
         UPDATE event_sequences SET last_sequence = last_sequence + ${BACKLOG}
         WHERE aggregate = 'projects' AND resource_id = $1
         RETURNING last_sequence - ${BACKLOG} AS first
       )
       INSERT INTO event_outbox (id, aggregate, resource_id, sequence, type, data, occurred_at)
       SELECT gen_random_uuid(), 'projects', $1, numbers.first + n, 'project.updated',
         json_build_object('backlog', n), clock_timestamp()
       FROM numbers, generate_series(1, ${BACKLOG}) AS n`,
      [project.uid],
    );
    await service.request
      .put(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .send({ mission_statement: 'after the backlog' })
      .expect(200);
    const events = (await watch.waitFor(BACKLOG + 2, 30_000)).filter(
      (received) => received.event['subject'] === project.uid,
    );
    expect(events.map((received) => Number(received.event['sequence']))).toEqual(
      Array.from({ length: BACKLOG + 2 }, (_, index) => index + 1),
    );
    expect(events.at(-1)?.event['type']).toBe('project.settings_updated');
    expect(new Set(events.map((received) => received.msgId)).size).toBe(BACKLOG + 2);
  } finally {
    await watch.close();
  }
}, 120_000);

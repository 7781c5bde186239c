import { deleteStream, natsUrlForTests, querySource, uniqueEventNames, watchEvents } from '@repo/testing';
import { useProjectService } from '../app';
import { admin, createProject, rootUid } from '../project-fixtures';

// Published events stay in the outbox for the retention period (replay reads them), then the relay
// deletes them in batches; events not yet published are never deleted.
const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('outbox retention');
const service = useProjectService(undefined, {
  events: {
    natsUrl,
    stream: names.stream,
    subjectPrefix: names.subjectPrefix,
    retentionMs: 0,
    relayTuning: { pruneEveryMs: 100, pollMs: 100 },
  },
});

afterAll(() => deleteStream(natsUrl, names.stream));

async function outboxRows(): Promise<{ published: number; pending: number }> {
  const [row] = await querySource<{ published: number; pending: number }>(
    service.database,
    `SELECT count(*) FILTER (WHERE published_at IS NOT NULL)::int AS published,
            count(*) FILTER (WHERE published_at IS NULL)::int AS pending
     FROM event_outbox`,
  );
  return row ?? { published: 0, pending: 0 };
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('deletes published events once past the retention, and keeps their sequence numbers going', async () => {
  const root = await rootUid(service);
  const project = await createProject(service, { parent_uid: root });
  const watch = await watchEvents(natsUrl, { stream: names.stream });
  try {
    await watch.waitFor(1);
    await until(async () => {
      const rows = await outboxRows();
      return rows.published === 0 && rows.pending === 0;
    });
    // The sequence lives on in event_sequences: the next event of the project is its second.
    await service.request
      .put(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .send({ mission_statement: 'after the prune' })
      .expect(200);
    const [, second] = await watch.waitFor(2);
    expect(second?.event).toMatchObject({ type: 'project.settings_updated', sequence: '2' });
  } finally {
    await watch.close();
  }
});

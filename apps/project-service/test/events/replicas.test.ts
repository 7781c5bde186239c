// Fault test: two replicas of the built service on one PostgreSQL database, both relays running,
// the writes spread over both (alternating, concurrent, the same projects written through both).
// Each event is published by one relay, once, and each resource's events in order
// (docs/events.md, Guarantees: "With several replicas"). Both processes share the
// database, so PostgreSQL only (PGlite serves one process).
import {
  deleteStream,
  natsUrlForTests,
  streamInfo,
  uniqueEventNames,
  watchEvents,
  type ServiceProcess,
} from '@repo/testing';
import {
  auditStream,
  counterTotal,
  createProject,
  eventsEnv,
  faultHome,
  killProcess,
  metricsOf,
  pool,
  projectOf,
  queryHome,
  rootUidOf,
  unmatchedWrites,
  updateProject,
  type FaultHome,
  type Project,
  type WriteOutcome,
} from './fault-support';

const PROJECTS = 6;
const UPDATES = 120;

// Needs DATABASE_URL: jest.config.js leaves this file out without it, and the global setup says so.
describe('two replicas on one database', () => {
  const natsUrl = natsUrlForTests() as string;
  const names = uniqueEventNames('replicas');
  let home: FaultHome;
  const replicas: ServiceProcess[] = [];

  beforeAll(async () => {
    home = await faultHome();
    // One after the other: the first start creates the root project.
    replicas.push(await home.start(eventsEnv(natsUrl, names)));
    replicas.push(await home.start(eventsEnv(natsUrl, names)));
  }, 90_000);

  afterAll(async () => {
    for (const replica of replicas) await killProcess(replica);
    await deleteStream(natsUrl, names.stream);
    await home?.remove();
  });

  it('publishes each event once, in order per resource', async () => {
    const [a, b] = replicas.map((replica) => replica.baseUrl) as [string, string];
    const root = await rootUidOf(a);
    const created = await pool(
      Array.from({ length: PROJECTS }, (_, index) => () => createProject(index % 2 ? b : a, root, 'replica')),
      4,
    );
    const projects: Project[] = created.map(projectOf);
    // Alternating replicas, eight at a time: a project's writes go through both, overlapping.
    const updates = await pool(
      Array.from(
        { length: UPDATES },
        (_, index) => () => updateProject(index % 2 ? b : a, projects[index % PROJECTS]!, root, index),
      ),
      8,
    );
    const writes: WriteOutcome[] = [...created, ...updates];
    expect(writes.filter((write) => write.status !== 200 && write.status !== 201)).toEqual([]);

    const watch = await watchEvents(natsUrl, { stream: names.stream });
    try {
      await watch.waitFor((events) => unmatchedWrites(writes, auditStream(events)).lost.length === 0, 20_000);
      const events = await watch.settled(1000, 10_000);
      const audit = auditStream(events);
      const { lost, twice } = unmatchedWrites(writes, audit);
      const [recorded] = await queryHome<{ count: number }>(
        home,
        'SELECT count(*)::int AS count FROM event_outbox',
      );
      const stream = await streamInfo(natsUrl, names.stream);
      // Every PubAck counts, a duplicate's too: their sum is how many publications the relays made.
      const publishedBy = await Promise.all(
        [a, b].map(async (url) => counterTotal(await metricsOf(url), 'events_published_total')),
      );
      const publications = publishedBy.reduce((sum, count) => sum + count, 0);

      expect(lost).toEqual([]);
      expect(twice).toEqual([]);
      expect(audit.duplicates).toBe(0);
      expect(audit.malformed).toEqual([]);
      expect(audit.outOfOrder).toEqual([]);
      expect(audit.gaps).toEqual([]);
      expect(stream.messages).toBe(recorded?.count);
      expect(audit.distinctIds).toBe(recorded?.count);
      expect(publications).toBe(recorded?.count);
      console.log(
        `replicas: ${writes.length} writes over 2 replicas on one database; ${recorded?.count} events recorded, ${stream.messages} stream messages, ${audit.distinctIds} distinct ids, ${publications} publications (replica A ${publishedBy[0]}, replica B ${publishedBy[1]}); duplicates: ${audit.duplicates}, out of order: ${audit.outOfOrder.length}, gaps: ${audit.gaps.length}`,
      );
    } finally {
      await watch.close();
    }
  }, 90_000);
});

// Fault test: the service SIGKILLed between publishing events and marking them published. NATS is
// frozen (SIGSTOP) while the relay publishes, so its messages wait unread in NATS's socket and no
// PubAck can come back; the service is killed; NATS continues and stores them. The outbox still has
// them unpublished, so the restarted service publishes them again with the same ids: JetStream's
// duplicate inFlight drops the copies, every event is in the stream once, in order per resource, and
// within 10 s of the start (docs/events.md, Guarantees).
import {
  natsServerForTests,
  startNatsServer,
  streamInfo,
  uniqueEventNames,
  watchEvents,
  type NatsServer,
  type ServiceProcess,
} from '@repo/testing';
import {
  auditStream,
  createProject,
  eventsEnv,
  faultHome,
  killProcess,
  pool,
  projectOf,
  queryHome,
  rootUidOf,
  unmatchedWrites,
  until,
  updateProject,
  type FaultHome,
  type WriteOutcome,
} from './fault-support';

/** Projects created while NATS is frozen: the relay has the first event of each in flight at once. */
const PROJECTS = 20;
const SLACK_MS = 1500;

if (natsServerForTests('relay crash')) {
  describe('the service killed between publishing and marking', () => {
    let nats: NatsServer;
    let home: FaultHome;
    let service: ServiceProcess | undefined;
    const names = uniqueEventNames('relay crash');
    // Rounds of 2 s: a few rounds' publishes fit in the frozen server's socket.
    const env = () => eventsEnv(nats.url, names, { EVENTS_PUBLISH_TIMEOUT_MS: '2000' });

    beforeAll(async () => {
      nats = await startNatsServer();
      home = await faultHome();
      service = await home.start(env());
    }, 90_000);

    afterAll(async () => {
      await killProcess(service);
      await nats?.close();
      await home?.remove();
    });

    it('publishes every event once, in order, after a restart', async () => {
      const root = await rootUidOf(service!.baseUrl);
      const writes: WriteOutcome[] = [];
      writes.push(await createProject(service!.baseUrl, root, 'early'));
      const early = await watchEvents(nats.url, { stream: names.stream });
      const first = await early.waitFor(
        (events) => unmatchedWrites(writes, auditStream(events)).lost.length === 0,
      );
      await early.close();
      const messageSize = Math.max(...first.map((event) => event.body.length));
      const before = (await streamInfo(nats.url, names.stream)).messages;

      nats.pause();
      const created = await pool(
        Array.from({ length: PROJECTS }, () => () => createProject(service!.baseUrl, root, 'crash')),
        6,
      );
      const projects = created.map(projectOf);
      const updated = await pool(
        projects.map((project, index) => () => updateProject(service!.baseUrl, project, root, index)),
        6,
      );
      writes.push(...created, ...updated);
      expect(writes.filter((write) => write.status !== 200 && write.status !== 201)).toEqual([]);

      // Getting no PubAck, the relay gives up after EVENTS_PUBLISH_TIMEOUT_MS and publishes its claim
      // again: each round after the writes claims every project's first event (the second waits for
      // the first's PubAck). Once a round's worth has arrived in NATS's socket, the service dies.
      const unread = await nats.unreadBytes();
      await until(
        "a round of the relay's publishes in the frozen server's socket",
        async () => ((await nats.unreadBytes()) - unread >= PROJECTS * messageSize ? true : undefined),
        20_000,
      );
      await killProcess(service);
      service = undefined;
      nats.resume();
      // NATS reads what the dead service sent and stores each event once.
      await until('NATS to read what the service sent', async () =>
        (await nats.unreadBytes()) === 0 ? true : undefined,
      );
      let stored = -1;
      await until('the stream to settle', async () => {
        const messages = (await streamInfo(nats.url, names.stream)).messages;
        const settled = messages === stored && messages > before;
        stored = messages;
        return settled ? true : undefined;
      });
      const watchAll = await watchEvents(nats.url, { stream: names.stream });
      const inFlight = (await watchAll.waitFor(stored)).slice(before).map((event) => event.msgId);
      await watchAll.close();

      // Published, never marked (no PubAck could reach the service): the outbox has them pending.
      const pending = await queryHome<{ id: string }>(
        home,
        'SELECT id::text AS id FROM event_outbox WHERE published_at IS NULL AND id = ANY($1::uuid[])',
        [inFlight],
      );
      expect(pending.map((row) => row.id).sort()).toEqual([...inFlight].sort());
      expect(inFlight.length).toBeGreaterThan(0);

      service = await home.start(env());
      const started = Date.now();
      const watch = await watchEvents(nats.url, { stream: names.stream });
      try {
        await watch.waitFor(
          (events) => unmatchedWrites(writes, auditStream(events)).lost.length === 0,
          10_000 + SLACK_MS,
        );
        const deliveredMs = Date.now() - started;
        const events = await watch.settled(1000, 10_000);
        const audit = auditStream(events);
        const { lost, twice } = unmatchedWrites(writes, audit);
        const stream = await streamInfo(nats.url, names.stream);
        expect(lost).toEqual([]);
        expect(twice).toEqual([]);
        expect(audit.duplicates).toBe(0);
        expect(audit.malformed).toEqual([]);
        expect(audit.outOfOrder).toEqual([]);
        expect(audit.gaps).toEqual([]);
        expect(stream.messages).toBe(audit.distinctIds);
        console.log(
          `relay crash: ${inFlight.length} events published and not marked when the service was killed; after the restart the stream holds ${stream.messages} messages, ${audit.distinctIds} distinct ids (${writes.length} writes), all within ${deliveredMs} ms of the start; lost: ${lost.length}, duplicates: ${audit.duplicates}, out of order: ${audit.outOfOrder.length}`,
        );
      } finally {
        await watch.close();
      }
    }, 90_000);
  });
}

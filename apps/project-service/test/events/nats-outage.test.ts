// Fault test: NATS killed (SIGKILL) during a burst of writes to the built service, then restarted on
// the same port and store. Writes go on unchanged, X-Sync answers `pending` within its bound, the
// outage is logged once, and once NATS is back every acknowledged write's event arrives, once, in
// order per resource (docs/events.md, Guarantees).
import {
  natsServerForTests,
  startNatsServer,
  uniqueEventNames,
  watchEvents,
  type EventWatch,
  type NatsServer,
  type ServiceProcess,
} from '@repo/testing';
import {
  auditStream,
  createProject,
  eventWarnings,
  eventsEnv,
  faultHome,
  killProcess,
  median,
  metricsOf,
  plainSample,
  pool,
  projectOf,
  rootUidOf,
  unmatchedWrites,
  until,
  updateProject,
  type FaultHome,
  type Project,
  type WriteOutcome,
} from './fault-support';

const X_SYNC_TIMEOUT_MS = 500;
/** What the machine may add to a bound (other test processes share its two cores). */
const SLACK_MS = 1500;
const PROJECTS = 8;
const BURST = 200;
/** The burst's write after which NATS is killed. */
const KILL_AFTER = 60;

if (natsServerForTests('nats outage')) {
  describe('NATS killed during a burst of writes', () => {
    let nats: NatsServer;
    let home: FaultHome;
    let service: ServiceProcess | undefined;
    let watch: EventWatch | undefined;
    const names = uniqueEventNames('nats outage');

    beforeAll(async () => {
      nats = await startNatsServer();
      home = await faultHome();
      service = await home.start(
        eventsEnv(nats.url, names, { X_SYNC_TIMEOUT_MS: String(X_SYNC_TIMEOUT_MS) }),
      );
      // From the stream's first message on: a duplicate anywhere in it is seen.
      watch = await watchEvents(nats.url, { stream: names.stream });
    }, 90_000);

    afterAll(async () => {
      await killProcess(service);
      await watch?.close();
      await nats?.close();
      await home?.remove();
    });

    it('writes go on, X-Sync answers pending, and every event arrives once, in order, after NATS is back', async () => {
      const baseUrl = service!.baseUrl;
      const root = await rootUidOf(baseUrl);
      const writes: WriteOutcome[] = [];
      const projects: Project[] = [];
      for (let index = 0; index < PROJECTS; index += 1) {
        const created = await createProject(baseUrl, root, 'outage');
        writes.push(created);
        projects.push(projectOf(created));
      }
      // Events flow before the fault.
      await watch!.waitFor((events) => unmatchedWrites(writes, auditStream(events)).lost.length === 0);

      // The burst: creates and updates over the projects, six at a time (so one project's writes
      // overlap), NATS killed after KILL_AFTER of them; every tenth write asks for X-Sync.
      let outage: 'before' | 'killing' | 'during' = 'before';
      let killing: Promise<void> | undefined;
      let completed = 0;
      const phases: ('before' | 'killing' | 'during')[] = [];
      const tasks = Array.from({ length: BURST }, (_, index) => async () => {
        const phase = outage;
        phases[index] = phase;
        const sync = index % 10 === 5;
        const outcome =
          index % 7 === 0
            ? await createProject(baseUrl, projects[index % PROJECTS]!.uid, 'burst', sync)
            : await updateProject(baseUrl, projects[index % PROJECTS]!, root, index, sync);
        completed += 1;
        if (completed === KILL_AFTER && outage === 'before') {
          outage = 'killing';
          killing = nats.kill().then(() => {
            outage = 'during';
          });
        }
        return outcome;
      });
      const burst = await pool(tasks, 6);
      await killing;
      writes.push(...burst);

      const failed = burst.filter((write) => write.status < 200 || write.status >= 300);
      expect(
        failed.map((write) => `${write.method} ${write.path}: ${write.status} ${write.error ?? ''}`),
      ).toEqual([]);
      const during = burst.filter((_, index) => phases[index] === 'during');
      const before = burst.filter((_, index) => phases[index] === 'before');
      expect(during.length).toBeGreaterThanOrEqual(BURST - KILL_AFTER - 20);

      // Writes without X-Sync do not wait for NATS: as fast as before the outage (give or take the
      // machine, shared with other tests).
      const plain = (list: WriteOutcome[]) =>
        list.filter((write) => write.syncStatus === undefined).map((write) => write.ms);
      const medianBefore = median(plain(before));
      const medianDuring = median(plain(during));
      const slowestDuring = Math.max(...plain(during));
      expect(medianDuring).toBeLessThan(Math.max(3 * medianBefore, 100));
      // X-Sync during the outage: the write's success, `pending`, after at most the bound (and the
      // write's own time, as long as the slowest write without X-Sync).
      const syncDuring = burst.filter((_, index) => phases[index] === 'during' && index % 10 === 5);
      expect(syncDuring.length).toBeGreaterThan(5);
      for (const write of syncDuring) {
        expect(write.syncStatus).toBe('pending');
        expect(write.ms).toBeLessThan(X_SYNC_TIMEOUT_MS + slowestDuring + 500);
      }

      // Still ready; the backlog is visible in the metrics; the outage is logged, once.
      const ready = await fetch(new URL('/readyz', baseUrl));
      expect(ready.status).toBe(200);
      const depth = plainSample(await metricsOf(baseUrl), 'events_outbox_depth');
      expect(depth).toBeGreaterThan(0);
      await until('the outage warning', () => (eventWarnings(service!).length > 0 ? true : undefined));

      // NATS back on the same port and store: within 10 s every acknowledged write's event is there.
      await nats.start();
      const restarted = Date.now();
      await watch!.waitFor(
        (events) => unmatchedWrites(writes, auditStream(events)).lost.length === 0,
        10_000 + SLACK_MS,
      );
      const deliveredMs = Date.now() - restarted;
      // Late re-publications would show up now.
      const events = await watch!.settled(1000, 10_000);

      const audit = auditStream(events);
      const { lost, twice } = unmatchedWrites(writes, audit);
      expect(lost).toEqual([]);
      expect(twice).toEqual([]);
      expect(audit.duplicates).toBe(0);
      expect(audit.malformed).toEqual([]);
      expect(audit.outOfOrder).toEqual([]);
      expect(audit.gaps).toEqual([]);
      expect(eventWarnings(service!)).toHaveLength(1);
      await until('an empty outbox', async () =>
        plainSample(await metricsOf(baseUrl), 'events_outbox_depth') === 0 ? true : undefined,
      );

      console.log(
        `nats outage: ${writes.length} writes (${during.length} during the outage, ${syncDuring.length} with X-Sync: pending, max ${Math.round(Math.max(...syncDuring.map((w) => w.ms)))} ms), outbox depth ${depth} at the outage; published ${audit.messages} events over ${audit.resources} resources within ${deliveredMs} ms of NATS restarting, lost: ${lost.length}, duplicates: ${audit.duplicates}, out of order: ${audit.outOfOrder.length}; write median ${Math.round(medianBefore)} ms before, ${Math.round(medianDuring)} ms during; outage warnings logged: ${eventWarnings(service!).length}`,
      );
    }, 90_000);
  });
}

import http from 'node:http';
import { httpRequest, type HttpOutcome, type ServiceProcess } from '../service-process';
import type { ServiceHome } from '../service-home';

/** The app's requests for the burst, sent through the suite's agent. */
export interface ShutdownWorkload {
  /** Creates something named `slug` (answered 201 once written). */
  create(agent: http.Agent, slug: string, index: number): Promise<HttpOutcome>;
  /** A read that lists a few of them. */
  list(agent: http.Agent): Promise<HttpOutcome>;
}

export interface GracefulShutdownOptions {
  /** Where the built service runs; restarted on the same data to check what was written. */
  serviceHome(): Promise<ServiceHome>;
  /** The requests of the burst, prepared once the service listens. */
  workload(service: ServiceProcess): Promise<ShutdownWorkload>;
  /** Of `slugs`, those the (restarted) service has stored. */
  storedAmong(service: ServiceProcess, slugs: string[]): Promise<string[]>;
}

const DRAIN_MS = 1500;
const REQUESTS = 200;
const WORKERS = 10;
/**
 * Once the drain period is over the server stops accepting: a connection still in the listen
 * backlog, or one whose request had not been read, is reset. Such a request was never accepted,
 * so a reset is allowed for a request sent late in the drain (a loaded machine accepts the
 * connections queued in its last moments only after it has closed), and a create that got one
 * must not have been written. Requests of the drain's first half must all be answered.
 */
const SLACK_MS = DRAIN_MS / 2;

/** A rolling restart, as Kubernetes does it: SIGTERM while requests are in flight. */
export function describeGracefulShutdown({
  serviceHome,
  workload,
  storedAmong,
}: GracefulShutdownOptions): void {
  jest.setTimeout(120_000);

  describe('SIGTERM during a burst of requests', () => {
    let home: ServiceHome;
    let service: ServiceProcess;

    beforeAll(async () => {
      home = await serviceHome();
      service = await home.start({ SHUTDOWN_DRAIN_MS: String(DRAIN_MS), SHUTDOWN_GRACE_MS: '5000' });
    });

    afterAll(async () => {
      service.kill('SIGKILL');
      await home.remove();
    });

    it('answers every request it accepted, is unready while draining, keeps every acknowledged write, exits 0', async () => {
      const { create, list } = await workload(service);
      const agent = new http.Agent({ keepAlive: true, maxSockets: WORKERS });
      const outcomes: (HttpOutcome & { slug?: string; startedAt: number })[] = [];
      let next = 0;
      let signalled = false;
      let signalAt = Number.POSITIVE_INFINITY;
      const worker = async (): Promise<void> => {
        while (next < REQUESTS) {
          const index = next++;
          if (index === REQUESTS / 2 && !signalled) {
            signalled = true;
            signalAt = Date.now();
            service.kill('SIGTERM');
          }
          const startedAt = Date.now();
          if (index % 2 === 0) {
            const slug = `burst-${index}`;
            outcomes.push({ ...(await create(agent, slug, index)), slug, startedAt });
          } else {
            outcomes.push({ startedAt, ...(await list(agent)) });
          }
          // Paced so that the burst outlasts the drain period.
          await new Promise((resolve) => setTimeout(resolve, 15));
        }
      };
      const readiness: (number | undefined)[] = [];
      const probe = (async () => {
        while (!signalled) await new Promise((resolve) => setTimeout(resolve, 5));
        const probeAgent = new http.Agent();
        for (let i = 0; i < 5; i++) {
          readiness.push((await httpRequest(service.baseUrl, probeAgent, 'GET', '/readyz')).status);
          await new Promise((resolve) => setTimeout(resolve, DRAIN_MS / 10));
        }
      })();
      await Promise.all([...Array.from({ length: WORKERS }, worker), probe]);
      const exitCode = await service.exited;
      agent.destroy();

      const answered = outcomes.filter((outcome) => outcome.status !== undefined);
      const refused = outcomes.filter((outcome) => outcome.error === 'ECONNREFUSED');
      const resetAfterDrain = outcomes.filter(
        (outcome) =>
          outcome.status === undefined &&
          outcome.error === 'ECONNRESET' &&
          outcome.startedAt >= signalAt + DRAIN_MS - SLACK_MS,
      );
      const broken = outcomes.filter(
        (outcome) =>
          outcome.status === undefined &&
          outcome.error !== 'ECONNREFUSED' &&
          !resetAfterDrain.includes(outcome),
      );
      // Every request got its whole answer, or came after the drain and found the server closed.
      expect(broken).toEqual([]);
      expect(answered.length + refused.length + resetAfterDrain.length).toBe(REQUESTS);
      expect(answered.length).toBeGreaterThan(REQUESTS / 2);
      expect(answered.filter((outcome) => (outcome.status ?? 0) >= 500)).toEqual([]);
      for (const outcome of answered) expect(() => JSON.parse(outcome.body ?? '') as unknown).not.toThrow();
      expect(readiness.slice(0, 3)).toEqual([503, 503, 503]);
      expect(exitCode).toBe(0);

      // Started again on the same data: every create that was acknowledged is there.
      const acknowledged = outcomes
        .filter((outcome) => outcome.status === 201)
        .flatMap((outcome) => (outcome.slug ? [outcome.slug] : []));
      expect(acknowledged.length).toBeGreaterThan(0);
      service = await home.start({ SHUTDOWN_DRAIN_MS: '0' });
      const resetCreates = resetAfterDrain.flatMap((outcome) => (outcome.slug ? [outcome.slug] : []));
      const stored = new Set(await storedAmong(service, [...acknowledged, ...resetCreates]));
      expect(acknowledged.filter((slug) => !stored.has(slug))).toEqual([]);
      // A create reset after the drain was never accepted: it must not have been written either.
      expect(resetCreates.filter((slug) => stored.has(slug))).toEqual([]);
      service.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    });
  });
}

import http from 'node:http';
import { httpRequest, type HttpOutcome, type ServiceProcess } from '@repo/testing';
import { processAdminAuthorization, serviceHome } from './service-process';

// A rolling restart, as Kubernetes does it: SIGTERM while requests are in flight.
jest.setTimeout(120_000);

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

describe('SIGTERM during a burst of requests', () => {
  let home: Awaited<ReturnType<typeof serviceHome>>;
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
    const token = processAdminAuthorization;

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
          const outcome = await httpRequest(service.baseUrl, agent, 'POST', '/api/v1/orgs', {
            headers: { Authorization: token, 'Content-Type': 'application/json' },
            body: JSON.stringify({ username: slug }),
          });
          outcomes.push({ ...outcome, slug, startedAt });
        } else {
          outcomes.push({
            startedAt,
            ...(await httpRequest(service.baseUrl, agent, 'GET', '/api/v1/orgs?limit=5', {
              headers: { Authorization: token },
            })),
          });
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
    const acknowledged = outcomes.filter((outcome) => outcome.status === 201).map((outcome) => outcome.slug);
    expect(acknowledged.length).toBeGreaterThan(0);
    service = await home.start({ SHUTDOWN_DRAIN_MS: '0' });
    const missing: string[] = [];
    const readAgent = new http.Agent({ keepAlive: true });
    for (const name of acknowledged) {
      const read = await httpRequest(service.baseUrl, readAgent, 'GET', `/api/v1/orgs/${name}`, {
        headers: { Authorization: token },
      });
      if (read.status !== 200) missing.push(`${name}: ${read.status}`);
    }
    // A create reset after the drain was never accepted: it must not have been written either.
    const written: string[] = [];
    for (const outcome of resetAfterDrain) {
      if (!outcome.slug) continue;
      const read = await httpRequest(service.baseUrl, readAgent, 'GET', `/api/v1/orgs/${outcome.slug}`, {
        headers: { Authorization: token },
      });
      if (read.status !== 404) written.push(`${outcome.slug}: ${read.status}`);
    }
    readAgent.destroy();
    expect(missing).toEqual([]);
    expect(written).toEqual([]);
    service.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  });
});

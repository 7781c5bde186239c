import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { PROCESS_START_MS, httpRequest, type HttpOutcome, type ServiceProcess } from '../service-process';
import type { ServiceHome } from '../service-home';

/** A request the suite sends, through its agent or byte by byte. */
export interface ShutdownRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The app's requests for the burst. */
export interface ShutdownWorkload {
  /** The request creating something named `slug` (answered 201 once written). */
  create(slug: string, index: number): ShutdownRequest;
  /** A read that lists a few of them. */
  list(agent: http.Agent): Promise<HttpOutcome>;
}

function send(baseUrl: string, agent: http.Agent, request: ShutdownRequest): Promise<HttpOutcome> {
  return httpRequest(baseUrl, agent, request.method, request.path, {
    headers: request.headers,
    body: request.body,
  });
}

/** `promise`, or a failure naming `what` once `ms` have passed without it. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The request as HTTP/1.1 bytes. */
function wireBytes(baseUrl: string, request: ShutdownRequest): Buffer {
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${new URL(baseUrl).host}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${Buffer.byteLength(request.body)}`, '', request.body);
  return Buffer.from(lines.join('\r\n'));
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
/** The start of the line both services log once SIGTERM has made readiness 503. */
const DRAIN_LOG_LINE = 'shutting down: readiness is 503';
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
    }, PROCESS_START_MS);

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
            outcomes.push({ ...(await send(service.baseUrl, agent, create(slug, index))), slug, startedAt });
          } else {
            outcomes.push({ startedAt, ...(await list(agent)) });
          }
          // Paced so that the burst outlasts the drain period.
          await new Promise((resolve) => setTimeout(resolve, 15));
        }
      };
      const readiness: { status?: number; startedAt: number }[] = [];
      const probe = (async () => {
        // From the service's log line saying it has taken the signal: a probe sent between the
        // kill and that moment may be read first (one event-loop turn holds both) and say 200.
        const drainLogged = (): boolean => service.output.some((line) => line.includes(DRAIN_LOG_LINE));
        while (!signalled || !drainLogged()) await new Promise((resolve) => setTimeout(resolve, 5));
        const probeAgent = new http.Agent();
        for (let i = 0; i < 5; i++) {
          const startedAt = Date.now();
          const { status } = await httpRequest(service.baseUrl, probeAgent, 'GET', '/readyz');
          readiness.push({ status, startedAt });
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
      // Unready once the signal is taken: every probe answered says 503, and only a probe sent late in
      // the drain (a loaded machine answers slowly) may find the server closed.
      expect(readiness[0]?.status).toBe(503);
      expect(
        readiness.filter(
          ({ status, startedAt }) =>
            status !== 503 && !(status === undefined && startedAt >= signalAt + DRAIN_MS - SLACK_MS),
        ),
      ).toEqual([]);
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

  describe('a request that arrives on a connection the stopping server has already closed', () => {
    let home: ServiceHome;

    beforeAll(async () => {
      home = await serviceHome();
    }, PROCESS_START_MS);

    afterAll(async () => {
      await home.remove();
    });

    it('is not acted on: the server could never answer it', async () => {
      let service = await home.start({ SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_GRACE_MS: '5000' });
      const { create } = await workload(service);
      const slug = 'closed-connection-create';
      const bytes = wireBytes(service.baseUrl, create(slug, 0));
      const url = new URL(service.baseUrl);
      // Half-open allowed: the client may still send after the server's FIN, as a real one does
      // when the FIN crosses its request on the wire.
      const socket = net.connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
      socket.on('error', () => undefined);
      socket.resume();
      await once(socket, 'connect');
      // The first bytes only: the server has begun reading a request on this connection.
      socket.write(bytes.subarray(0, 5));
      // A round trip on another connection: by its answer the server has read those bytes.
      await httpRequest(service.baseUrl, new http.Agent(), 'GET', '/livez');
      service.kill('SIGTERM');
      await within(once(socket, 'end'), 10_000, 'the server ending the connection');
      // The server has ended the connection; the rest of the request arrives after it.
      socket.end(bytes.subarray(5));
      await within(once(socket, 'close'), 10_000, 'the connection closing');
      expect(await within(service.exited, 10_000, 'the service exiting')).toBe(0);

      service = await home.start({ SHUTDOWN_DRAIN_MS: '0' });
      expect(await storedAmong(service, [slug])).toEqual([]);
      service.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    });
  });
}

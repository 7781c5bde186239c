import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A round-robin load balancer in front of several replicas of one service. Like a load balancer in
// front of Kubernetes pods, it can route only to the replicas whose /readyz answered 200 at its
// last check. It never retries: a request a replica fails (a reset, a refused connection) reaches
// the client as a 502, so a test through it sees every failure a real deployment would show.

export interface BalancerOptions {
  /**
   * How often each replica's /readyz is asked (a few hundred ms, as a load balancer's probe).
   * 0: no checks, every attached replica is routed to (replicas that are never restarted).
   */
  checkEveryMs: number;
}

export interface BalancerCounts {
  /** Requests sent to each replica slot. */
  perReplica: number[];
  /** 502s: a replica failed the request. */
  failed: number;
  /** 503s: no replica was ready. */
  noReplica: number;
}

export interface Balancer {
  /** Where clients send their requests. */
  readonly url: string;
  readonly counts: BalancerCounts;
  /** Slot `index` is now the replica at `baseUrl`; it is routed to once ready (at once without checks). */
  attach(index: number, baseUrl: string): void;
  /** Slot `index` gets no more requests (its replica is being replaced). */
  detach(index: number): void;
  /** Resolves once slot `index` is routed to. */
  routed(index: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/** A readiness probe's timeout, and the timeouts in a row that take a replica out (Kubernetes' defaults: 1 s, 3). */
const PROBE_TIMEOUT_MS = 1000;
const FAILURE_THRESHOLD = 3;

interface Slot {
  baseUrl: string;
  ready: boolean;
  /** Probes that timed out in a row. */
  timeouts: number;
}

export async function startBalancer({ checkEveryMs }: BalancerOptions): Promise<Balancer> {
  const slots: (Slot | undefined)[] = [];
  const counts: BalancerCounts = { perReplica: [], failed: 0, noReplica: 0 };
  const upstream = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const probes = new http.Agent({ keepAlive: false });
  let next = 0;

  // A slow answer (a busy machine) takes a replica out only after a few timeouts in a row; a 503
  // (draining) or a refused connection (gone) at once. An answer counts only for the replica it
  // was asked of (the slot may have been given another since).
  const probe = (slot: Slot): Promise<void> =>
    new Promise((resolve) => {
      let timedOut = false;
      const request = http.get(
        `${slot.baseUrl}/readyz`,
        { agent: probes, timeout: PROBE_TIMEOUT_MS },
        (response) => {
          response.resume();
          slot.ready = response.statusCode === 200;
          slot.timeouts = 0;
          resolve();
        },
      );
      request.once('timeout', () => {
        timedOut = true;
        request.destroy();
      });
      request.once('error', () => {
        slot.timeouts = timedOut ? slot.timeouts + 1 : FAILURE_THRESHOLD;
        if (slot.timeouts >= FAILURE_THRESHOLD) slot.ready = false;
        resolve();
      });
    });
  let checking: Promise<unknown> = Promise.resolve();
  const checker =
    checkEveryMs > 0
      ? setInterval(() => {
          checking = Promise.all(slots.filter((slot) => slot !== undefined).map(probe));
        }, checkEveryMs)
      : undefined;

  const proxy = http.createServer((req, res) => {
    const chosen = slots
      .map((_, offset) => (next + offset) % slots.length)
      .find((index) => slots[index]?.ready);
    const slot = chosen === undefined ? undefined : slots[chosen];
    if (chosen === undefined || !slot) {
      counts.noReplica += 1;
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no ready replica\n');
      return;
    }
    next = (chosen + 1) % slots.length;
    counts.perReplica[chosen] = (counts.perReplica[chosen] ?? 0) + 1;
    const target = new URL(slot.baseUrl);
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: endToEnd(req.headers),
        agent: upstream,
      },
      (answer) => {
        // A replica that closes its connection after this answer (a 413 before the body was read)
        // has the client's closed too: the client stops sending what nobody will read.
        const headers = endToEnd(answer.headers);
        if (answer.headers.connection?.toLowerCase() === 'close') headers['connection'] = 'close';
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(res);
        answer.once('error', () => res.destroy());
      },
    );
    forwarded.once('error', (error: NodeJS.ErrnoException) => {
      counts.failed += 1;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res
        .writeHead(502, { 'content-type': 'text/plain' })
        .end(`replica ${chosen} failed: ${error.code ?? error.message}\n`);
    });
    // A client that goes away takes its forwarded request with it.
    res.once('close', () => {
      if (!res.writableFinished) forwarded.destroy();
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  let stopped = false;

  return {
    url,
    counts,
    attach(index, baseUrl) {
      slots[index] = { baseUrl, ready: checker === undefined, timeouts: 0 };
      counts.perReplica[index] ??= 0;
    },
    detach(index) {
      slots[index] = undefined;
    },
    async routed(index, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!slots[index]?.ready) {
        if (Date.now() > deadline) throw new Error(`replica ${index} not ready within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, Math.max(10, checkEveryMs / 2)));
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (checker) clearInterval(checker);
      await checking;
      const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      await closed;
      upstream.destroy();
    },
  };
}

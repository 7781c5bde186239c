import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServiceProcess, type ServiceProcess } from './service-process';

// Several processes of one service behind a round-robin proxy that, like a load balancer in front
// of Kubernetes pods, routes only to the replicas whose /readyz answered 200 at its last check.
// The proxy never retries: a request a replica fails (a reset, a refused connection) reaches the
// client as a 502, so a test through it sees every failure a real deployment would show.

export interface ReplicaSetOptions {
  /** The app whose `node dist/main.js` runs (each replica on a free port). */
  appDir: string;
  /** How many replicas (2 or 3). */
  count: number;
  /** Each replica's environment (DATABASE_URL naming one PostgreSQL database, …). */
  env: Record<string, string>;
  /** How often each replica's /readyz is asked (a few hundred ms, as a load balancer's probe). */
  checkEveryMs?: number;
}

export interface ReplicaSet {
  /** The proxy: requests go to the ready replicas in turn. */
  readonly url: string;
  /** The replicas' processes as they are now (restart() replaces one). */
  readonly replicas: readonly ServiceProcess[];
  /** Requests the proxy sent to each replica slot, and the 502s it answered (no replica, or one failed). */
  readonly counts: { perReplica: number[]; failed: number; noReplica: number };
  /**
   * A replica's rolling restart: SIGTERM, its exit awaited (it drains first), a new process started
   * in its place, and resolved once the proxy routes to it. Resolves with the old one's exit code.
   */
  restart(index: number): Promise<number | string>;
  /** Stops the proxy and every replica (SIGTERM, then SIGKILL after 15 s). */
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

/** Starts `count` replicas, the proxy, and the readiness checks; resolves once every replica is routed to. */
export async function startReplicaSet(options: ReplicaSetOptions): Promise<ReplicaSet> {
  const { appDir, count, env, checkEveryMs = 250 } = options;
  const replicas: ServiceProcess[] = [];
  for (let index = 0; index < count; index += 1) {
    replicas.push(await startServiceProcess(appDir, env));
  }
  const ready = replicas.map(() => false);
  // Probes that timed out in a row, per replica: like a load balancer's failure threshold, a slow
  // answer (a busy machine) takes a replica out only after a few; a 503 (draining) or a refused
  // connection (gone) at once.
  const timeouts = replicas.map(() => 0);
  const counts = { perReplica: replicas.map(() => 0), failed: 0, noReplica: 0 };
  const upstream = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const probes = new http.Agent({ keepAlive: false });
  let stopped = false;
  let next = 0;

  const probe = (index: number): Promise<void> =>
    new Promise((resolve) => {
      const replica = replicas[index]!;
      let timedOut = false;
      const request = http.get(
        `${replica.baseUrl}/readyz`,
        { agent: probes, timeout: PROBE_TIMEOUT_MS },
        (response) => {
          response.resume();
          // The answer counts only for the process it was asked of (a restart may have replaced it).
          if (replicas[index] === replica) {
            ready[index] = response.statusCode === 200;
            timeouts[index] = 0;
          }
          resolve();
        },
      );
      request.once('timeout', () => {
        timedOut = true;
        request.destroy();
      });
      request.once('error', () => {
        if (replicas[index] === replica) {
          timeouts[index] = timedOut ? (timeouts[index] ?? 0) + 1 : FAILURE_THRESHOLD;
          if ((timeouts[index] ?? 0) >= FAILURE_THRESHOLD) ready[index] = false;
        }
        resolve();
      });
    });
  let checking: Promise<unknown> = Promise.resolve();
  const checker = setInterval(() => {
    checking = Promise.all(replicas.map((_, index) => probe(index)));
  }, checkEveryMs);

  const proxy = http.createServer((req, res) => {
    const candidates = replicas
      .map((_, index) => (next + index) % replicas.length)
      .filter((index) => ready[index]);
    const chosen = candidates[0];
    if (chosen === undefined) {
      counts.noReplica += 1;
      res.writeHead(503, { 'content-type': 'text/plain' }).end('no ready replica\n');
      return;
    }
    next = (chosen + 1) % replicas.length;
    counts.perReplica[chosen] = (counts.perReplica[chosen] ?? 0) + 1;
    const target = new URL(replicas[chosen]!.baseUrl);
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
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
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
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  const routed = async (index: number, timeoutMs = 60_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!ready[index]) {
      if (Date.now() > deadline) throw new Error(`replica ${index} not ready within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, checkEveryMs / 2));
    }
  };
  for (let index = 0; index < count; index += 1) await routed(index);

  return {
    url,
    replicas,
    counts,
    async restart(index) {
      const old = replicas[index]!;
      old.kill('SIGTERM');
      const code = await old.exited;
      ready[index] = false;
      timeouts[index] = 0;
      replicas[index] = await startServiceProcess(appDir, env);
      await routed(index);
      return code;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(checker);
      await checking;
      const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      await closed;
      upstream.destroy();
      await Promise.all(
        replicas.map(async (replica) => {
          replica.kill('SIGTERM');
          const killer = setTimeout(() => replica.kill('SIGKILL'), 15_000);
          await replica.exited;
          clearTimeout(killer);
        }),
      );
    },
  };
}

/** Says in one line that test/replicas/ did not run (each app's jest.config.js leaves it out without DATABASE_URL). */
export function announceSkippedReplicaTests(): void {
  if (process.env['DATABASE_URL']) return;
  process.stderr.write(
    'replica tests (test/replicas/) not run: several service processes need one PostgreSQL database (DATABASE_URL is unset; PGlite serves one process)\n',
  );
}

import { startBalancer, type BalancerCounts } from './balancer';
import { startServiceProcess, type ServiceProcess } from './service-process';

// Several processes of one service behind the round-robin balancer (./balancer.ts), which routes
// only to the replicas whose /readyz answered 200 at its last check.

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
  readonly counts: BalancerCounts;
  /**
   * A replica's rolling restart: SIGTERM, its exit awaited (it drains first), a new process started
   * in its place, and resolved once the proxy routes to it. Resolves with the old one's exit code.
   */
  restart(index: number): Promise<number | string>;
  /** Stops the proxy and every replica (SIGTERM, then SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/** Starts `count` replicas, the balancer, and its readiness checks; resolves once every replica is routed to. */
export async function startReplicaSet(options: ReplicaSetOptions): Promise<ReplicaSet> {
  const { appDir, count, env, checkEveryMs = 250 } = options;
  const replicas: ServiceProcess[] = [];
  for (let index = 0; index < count; index += 1) {
    replicas.push(await startServiceProcess(appDir, env));
  }
  const balancer = await startBalancer({ checkEveryMs });
  replicas.forEach((replica, index) => balancer.attach(index, replica.baseUrl));
  for (let index = 0; index < count; index += 1) await balancer.routed(index);
  let stopped = false;

  return {
    url: balancer.url,
    replicas,
    counts: balancer.counts,
    async restart(index) {
      const old = replicas[index]!;
      // The balancer's checks take it out once it answers 503 (draining) or no longer answers.
      old.kill('SIGTERM');
      const code = await old.exited;
      balancer.detach(index);
      replicas[index] = await startServiceProcess(appDir, env);
      balancer.attach(index, replicas[index].baseUrl);
      await balancer.routed(index);
      return code;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await balancer.stop();
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

/** Says in one line that test/replicas/ and test/plans/ did not run (each app's jest.config.js leaves them out without DATABASE_URL). */
export function announceSkippedReplicaTests(): void {
  if (process.env['DATABASE_URL']) return;
  process.stderr.write(
    "replica, query-plan and PostgreSQL connection tests (test/replicas/, test/plans/, test/postgres/) not run: several service processes need one PostgreSQL database, and the plans and connections are PostgreSQL's (DATABASE_URL is unset)\n",
  );
}

import http from 'node:http';
import { startReplicaSet, type ReplicaSet } from '../replicas';
import { PROCESS_START_MS, httpRequest, type HttpOutcome } from '../service-process';
import { createTestDatabase, type TestDatabase } from '../test-database';

// The deployment's promise (infra/: several replicas, rolling updates): a steady stream of reads
// and writes through a load balancer while each replica in turn gets SIGTERM, drains, exits and is
// started again; not one request fails and not one acknowledged write is lost. Two replicas of the
// built service on one PostgreSQL database behind the readiness-checking proxy (../replicas.ts).
// PostgreSQL only: each app's jest.config.js leaves test/replicas/ out without DATABASE_URL.

/** A request through the proxy, with the app's credentials; network failures are outcomes. */
export type Send = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<HttpOutcome>;

/** What the app's workers do, each on things of its own. */
export interface RollingWorkload {
  /** Creates something named `name` (201); its key for the calls below, or the outcome when not created. */
  create(send: Send, name: string): Promise<{ key: string } | HttpOutcome>;
  /** Reads it (200). */
  read(send: Send, key: string): Promise<HttpOutcome>;
  /** Changes it a `round`-th time (200), recording the round in it. */
  update(send: Send, key: string, round: number): Promise<HttpOutcome>;
  /** Reads a page of a list (200). */
  list(send: Send): Promise<HttpOutcome>;
  /** The round of the last change stored now, 0 for none (undefined when it is not found). */
  storedRound(send: Send, key: string): Promise<number | undefined>;
}

export interface RollingRestartOptions {
  appDir: string;
  /** Each replica's environment besides DATABASE_URL (credentials of an administrator, …). */
  env: Record<string, string>;
  /** The app's credentials, as request headers. */
  headers: Record<string, string>;
  workload: RollingWorkload;
}

const WORKERS = 6;
const UPDATES_PER_THING = 5;

export function describeRollingRestart({ appDir, env, headers, workload }: RollingRestartOptions): void {
  describe('a rolling restart of two replicas under load', () => {
    let database: TestDatabase;
    let set: ReplicaSet;

    beforeAll(async () => {
      database = await createTestDatabase();
      if (database.source.kind !== 'postgres') throw new Error('a rolling restart needs DATABASE_URL');
      set = await startReplicaSet({
        appDir,
        count: 2,
        env: {
          ...env,
          DATABASE_URL: database.source.url,
          // Longer than a few of the proxy's readiness checks (250 ms): it stops routing to a
          // draining replica well before that replica stops accepting.
          SHUTDOWN_DRAIN_MS: '2000',
        },
      });
    }, PROCESS_START_MS);

    afterAll(async () => {
      await set?.stop();
      await database?.drop();
    });

    it('fails no request and loses no acknowledged write', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: WORKERS * 2 });
      const send: Send = (method, path, body, extra = {}) =>
        httpRequest(set.url, agent, method, path, {
          headers: {
            ...headers,
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...extra,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const failures: { request: string; status?: number; error?: string; body?: string }[] = [];
      const expectStatus = (request: string, outcome: HttpOutcome, status: number): boolean => {
        if (outcome.status === status) return true;
        failures.push({
          request,
          status: outcome.status,
          error: outcome.error,
          body: outcome.body?.slice(0, 300),
        });
        return false;
      };
      /** The round of each thing's last acknowledged change. */
      const acknowledged = new Map<string, number>();
      let requests = 0;
      let rolling = true;

      const worker = async (index: number) => {
        for (let thing = 0; rolling; thing += 1) {
          const name = `rolling-${index}-${thing}-${Date.now().toString(36)}`;
          const created = await workload.create(send, name);
          requests += 1;
          if (!('key' in created)) {
            expectStatus(`create ${name}`, created, 201);
            continue;
          }
          acknowledged.set(created.key, 0);
          for (let round = 1; round <= UPDATES_PER_THING && rolling; round += 1) {
            expectStatus(`read ${created.key}`, await workload.read(send, created.key), 200);
            const updated = await workload.update(send, created.key, round);
            requests += 2;
            if (expectStatus(`update ${created.key} ${round}`, updated, 200))
              acknowledged.set(created.key, round);
            if (round % 2 === 1) {
              expectStatus('list', await workload.list(send), 200);
              requests += 1;
            }
          }
        }
      };
      const load = Array.from({ length: WORKERS }, (_, index) => worker(index));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const exits: (number | string)[] = [];
      for (let index = 0; index < set.replicas.length; index += 1) exits.push(await set.restart(index));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      rolling = false;
      await Promise.all(load);

      expect(exits).toEqual([0, 0]);
      expect(failures).toEqual([]);
      expect({ failed: set.counts.failed, noReplica: set.counts.noReplica }).toEqual({
        failed: 0,
        noReplica: 0,
      });
      expect(set.counts.perReplica.every((count) => count > 0)).toBe(true);
      expect(requests).toBeGreaterThan(200);
      // Every acknowledged write is stored, as its last acknowledged change left it.
      const stored = new Map<string, number | undefined>();
      for (const key of acknowledged.keys()) stored.set(key, await workload.storedRound(send, key));
      expect(stored).toEqual(acknowledged);
      agent.destroy();
    }, 180_000);
  });
}

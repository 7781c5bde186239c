import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { urlOfDatabase, withClient } from '../database-template';
import { startNatsServer, type NatsServer } from '../nats';
import { startServiceProcess, type ServiceProcess } from '../service-process';
import type { Router } from './client';
import type { ReplicaExit } from './history';

// What a soak runs against: a throwaway database on the machine's PostgreSQL, a NATS server of its
// own (never the machine's shared one), and several replicas of the built service (dist/main.js) on
// them, with what the nemesis needs to break each and mend it.

/** The PostgreSQL server the soak makes its database on (the user needs CREATEDB). */
export const SOAK_SERVER_URL =
  process.env['SOAK_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface ClusterOptions {
  /** The app's folder (its dist/main.js runs). */
  appDir: string;
  /** A prefix of the database's name: `<prefix>_<time>_<pid>`. */
  databasePrefix: string;
  replicas: number;
  /** Each replica's environment, on top of the database, NATS, port and shutdown variables. */
  env: Record<string, string>;
  /** The history's clock (for the time of a replica's own exit). */
  now(): number;
}

export interface SoakCluster extends Router {
  readonly databaseUrl: string;
  readonly nats: NatsServer;
  readonly replicaCount: number;
  /** How many processes have run (the first ones and each restart). */
  readonly started: number;
  /** The replicas that exited when nothing stopped them (each replaced at once, as Kubernetes restarts a crashed pod). */
  readonly exits: ReplicaExit[];
  /**
   * Stops replica `index`: SIGKILL (routed to no more at once) or SIGTERM (still routed to for half
   * a second, as a load balancer notices a draining replica only at its next probe); resolved once
   * the process has exited.
   */
  stop(index: number, signal: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** Starts a new process in slot `index`; resolved once it listens, and routed to from then on. */
  restart(index: number): Promise<void>;
  /** The replicas' slots that are routed to. */
  routable(): number[];
  /** pg_terminate_backend of every other connection to the database; how many there were. */
  terminateConnections(): Promise<number>;
  /** Events recorded and not yet published. */
  outboxPending(): Promise<number>;
  /** Every replica running and NATS up. */
  heal(): Promise<void>;
  /** Stops everything and removes the database and the folders. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startCluster(options: ClusterOptions): Promise<SoakCluster> {
  const databaseName = `${options.databasePrefix}_${Date.now().toString(36)}_${process.pid}`;
  await withClient(SOAK_SERVER_URL, (client) => client.query(`CREATE DATABASE "${databaseName}"`));
  const databaseUrl = urlOfDatabase(SOAK_SERVER_URL, databaseName);
  // One DATA_DIR for every replica, as a shared volume (code-hosting-api keeps attachments there).
  const dataDir = await mkdtemp(path.join(tmpdir(), `soak-${options.databasePrefix}-`));
  const processes: (ServiceProcess | undefined)[] = [];
  /** Each slot's last URL: where requests go (and are refused) while no replica runs. */
  const urls: string[] = [];
  /** Slots whose crashed replica is being replaced. */
  const replacing = new Map<number, Promise<void>>();
  const routed = new Set<number>();
  const stopping = new Set<ServiceProcess>();
  const exits: ReplicaExit[] = [];
  let nats: NatsServer | undefined;
  let started = 0;
  let next = 0;

  const close = async () => {
    await Promise.all(
      processes.map(async (replica) => {
        if (!replica) return;
        stopping.add(replica);
        replica.kill('SIGTERM');
        const killer = setTimeout(() => replica.kill('SIGKILL'), 15_000);
        await replica.exited;
        clearTimeout(killer);
      }),
    );
    await nats?.close();
    await withClient(SOAK_SERVER_URL, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`),
    ).catch((error: unknown) => console.error(`soak: could not drop ${databaseName}: ${String(error)}`));
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    nats = await startNatsServer();
    const natsServer = nats;
    const env = {
      ...options.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      NATS_URL: natsServer.url,
      // A stopped replica drains for a second (still answering), then lets its requests finish.
      SHUTDOWN_DRAIN_MS: '1000',
      SHUTDOWN_GRACE_MS: '5000',
    };
    const launch = async (index: number): Promise<void> => {
      const replica = await startServiceProcess(options.appDir, env, 120_000);
      processes[index] = replica;
      urls[index] = replica.baseUrl;
      started += 1;
      routed.add(index);
      void replica.exited.then((code) => {
        if (stopping.has(replica)) return;
        // A crash: as a load balancer would, route to it no more; as Kubernetes would, start another.
        routed.delete(index);
        processes[index] = undefined;
        const replaced = launch(index).finally(() => replacing.delete(index));
        replaced.catch(() => undefined);
        replacing.set(index, replaced);
        // Its last lines (a crash's stack trace among them), each cut short.
        const output = replica.output
          .slice(-40)
          .flatMap((chunk) => chunk.split('\n'))
          .filter((line) => line.trim() !== '')
          .slice(-40)
          .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line));
        exits.push({ replica: index, at: options.now(), code, output });
      });
    };
    // The first alone (it migrates and creates what a first start creates), then the others together.
    await launch(0);
    await Promise.all(Array.from({ length: options.replicas - 1 }, (_, offset) => launch(offset + 1)));

    const stop = async (index: number, signal: 'SIGKILL' | 'SIGTERM') => {
      const replica = processes[index];
      if (!replica) return;
      stopping.add(replica);
      if (signal === 'SIGKILL') routed.delete(index);
      replica.kill(signal);
      if (signal === 'SIGTERM') {
        await sleep(500);
        routed.delete(index);
      }
      await replica.exited;
      processes[index] = undefined;
    };
    const query = (sql: string, parameters: unknown[] = []) =>
      withClient(SOAK_SERVER_URL, (client) => client.query<{ n: number }>(sql, parameters));

    return {
      databaseUrl,
      nats: natsServer,
      replicaCount: options.replicas,
      get started() {
        return started;
      },
      exits,
      pick() {
        const ready = [...routed].sort((a, b) => a - b);
        if (ready.length === 0) {
          const index = next++ % urls.length;
          return { index, baseUrl: urls[index]! };
        }
        const index = ready[next++ % ready.length]!;
        return { index, baseUrl: processes[index]!.baseUrl };
      },
      routable: () => [...routed].sort((a, b) => a - b),
      stop,
      restart: (index) => replacing.get(index) ?? launch(index),
      async terminateConnections() {
        const result = await query(
          'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [databaseName],
        );
        return result.rows[0]?.n ?? 0;
      },
      async outboxPending() {
        const result = await withClient(databaseUrl, (client) =>
          client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM event_outbox WHERE published_at IS NULL',
          ),
        );
        return result.rows[0]?.n ?? 0;
      },
      async heal() {
        await Promise.all(replacing.values());
        for (let index = 0; index < options.replicas; index += 1) {
          if (!processes[index]) await launch(index);
        }
        // start() refuses a running server: only a stopped one is started.
        await natsServer.start().catch((error: unknown) => {
          if (!/already running/.test(String(error))) throw error;
        });
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkHistory, formatReport } from './checker';
import { HistoryRecorder, type SoakRequest } from './client';
import { startCluster } from './cluster';
import type { History, Observation, Operation, StreamEvent } from './history';
import { FAULT_KINDS, runNemesis } from './nemesis';
import type { FaultKind } from './history';
import { seededRandom, type Random } from './random';
import { readWholeStream } from './stream';

// A soak of one service: its replicas on a throwaway database and a NATS server of the soak's own,
// concurrent clients recording a history for a bounded time while the nemesis injects faults, then
// everything healed, the outbox drained, the final state read, the stream read from its first
// event, and the history checked. Prints the report; exit status 1 on any violation.

/** What a workload's steps call: the recording client, the run's random source and clock. */
export interface SoakApi {
  send(client: number, request: SoakRequest): Promise<Operation>;
  readonly random: Random;
  now(): number;
}

/** An app's workload: its setup, its clients' operations, its final reads, and how to read its events. */
export interface SoakWorkload {
  /** Each replica's environment besides the database, NATS and shutdown variables (secrets, admin account). */
  env: Record<string, string>;
  /** The stream the service publishes to (its EVENTS_STREAM default). */
  stream: string;
  /** Through the API, before the clients start and before any fault (phase `setup`). */
  setup(api: SoakApi): Promise<void>;
  /** One operation of `client` (it annotates what it wrote or read on the operation). */
  step(api: SoakApi, client: number): Promise<void>;
  /** After the run, with everything healed and the outbox drained: read every resource (phase `final`). */
  finalReads(api: SoakApi): Promise<void>;
  /** What an event's data shows of the registers. */
  observeEvent(event: StreamEvent): Observation[];
  /** Before the check: what the events tell of writes whose answer never came (a create's id). */
  resolve?(history: History): void;
}

export interface SoakOptions {
  /** The app's name, for the report and the database's name. */
  app: string;
  appDir: string;
  workload: SoakWorkload;
}

/** Failures after a fault healed are still allowed for this long: pools reconnecting, a relay's backoff. */
export const FAULT_MARGIN_MS = 5_000;

const numberFrom = (name: string, fallback: number) => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${raw}`);
  return value;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the soak and sets process.exitCode (0: no violation). */
export async function runSoak({ app, appDir, workload }: SoakOptions): Promise<void> {
  const durationMs = numberFrom('SOAK_DURATION_S', 60) * 1000;
  const clients = numberFrom('SOAK_CLIENTS', 16);
  const seed = numberFrom('SOAK_SEED', 1 + Math.floor(Math.random() * 2 ** 31));
  const random = seededRandom(seed);
  const kinds = (process.env['SOAK_FAULTS'] || FAULT_KINDS.join(',')).split(',').map((kind) => kind.trim());
  const unknownKind = kinds.find((kind) => !FAULT_KINDS.includes(kind as FaultKind));
  if (unknownKind !== undefined)
    throw new Error(`SOAK_FAULTS: ${unknownKind} is not one of ${FAULT_KINDS.join(', ')}`);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`soak ${app}: 3 replicas, ${clients} clients, ${durationMs / 1000} s, SOAK_SEED=${seed}`);

  const started = performance.now();
  const now = () => performance.now() - started;
  const cluster = await startCluster({
    appDir,
    databasePrefix: `soak_${app.replace(/-/g, '_')}`,
    replicas: 3,
    env: workload.env,
    now,
  });
  const recorder = new HistoryRecorder(cluster, now);
  const api: SoakApi = {
    send: (client, request) => recorder.send(client, request),
    random,
    now: () => recorder.now(),
  };
  let history: History | undefined;
  // Interrupted (Ctrl-C, CI's timeout): the replicas, NATS and the database go too.
  const interrupted = (signal: NodeJS.Signals) => {
    log(`soak ${app}: ${signal}; stopping the replicas and removing the database`);
    void cluster.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await workload.setup(api);
    recorder.phase = 'run';
    const runStart = recorder.now();
    const runEnd = runStart + durationMs;
    log(
      `  .. ${cluster.started} replicas listening; clients and nemesis start at ${(runStart / 1000).toFixed(1)} s`,
    );
    const nemesis = runNemesis({
      cluster,
      random,
      kinds: kinds as FaultKind[],
      now: api.now,
      lastStartAt: runEnd - 5_000,
      quietMs: Math.min(4_000, durationMs / 12),
      log,
    });
    // A workload's own error stops every client (and fails the run), not only the one that met it.
    let failed = false;
    const workers = Array.from({ length: clients }, async (_, client) => {
      try {
        while (!failed && recorder.now() < runEnd) await workload.step(api, client);
      } catch (error) {
        failed = true;
        throw error;
      }
    });
    const [faults] = await Promise.all([nemesis, ...workers]);

    recorder.phase = 'final';
    for (const exit of cluster.exits)
      log(
        `  .. replica ${exit.replica} exited (${exit.code}) at ${(exit.at / 1000).toFixed(1)} s when nothing stopped it`,
      );
    await cluster.heal();
    const drainStarted = recorder.now();
    let pending = await cluster.outboxPending();
    while (pending > 0 && recorder.now() - drainStarted < 60_000) {
      await sleep(500);
      pending = await cluster.outboxPending();
    }
    if (pending > 0) log(`  .. ${pending} events still unpublished 60 s after everything healed`);
    log(
      `  .. run over at ${(recorder.now() / 1000).toFixed(1)} s; outbox drained in ${((recorder.now() - drainStarted) / 1000).toFixed(1)} s`,
    );
    await workload.finalReads(api);
    const events = await readWholeStream(cluster.nats.url, workload.stream);
    for (const event of events) event.observes = workload.observeEvent(event);
    history = { operations: recorder.operations, faults, events, exits: cluster.exits };
    workload.resolve?.(history);
  } finally {
    process.removeListener('SIGINT', interrupted);
    process.removeListener('SIGTERM', interrupted);
    recorder.close();
    await cluster.close();
  }

  if (!history) throw new Error('soak: no history was recorded');
  const report = checkHistory(history, { faultMarginMs: FAULT_MARGIN_MS });
  console.log(formatReport(`soak ${app} (SOAK_SEED=${seed})`, report));
  const keep = process.env['SOAK_HISTORY'];
  if (keep || report.violations.length > 0) {
    const file = keep || path.join(tmpdir(), `soak-${app}-${seed}.json`);
    await writeFile(file, JSON.stringify(history));
    console.log(`  history: ${file}`);
  }
  process.exitCode = report.violations.length > 0 ? 1 : 0;
}

// Test-side NATS JetStream plumbing for the apps' change-event tests: a nats-server of a test's own
// (for fault tests), unique stream names and subject prefixes (so test files can share the machine's
// NATS), and a watcher that collects what a service published. Tests observe only what services
// publish: there is deliberately no helper to publish an event.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeliverPolicy, jetstreamManager, jetstream, type JsMsg } from '@nats-io/jetstream';
import { connect, type NodeConnectionOptions } from '@nats-io/transport-node';
import { freePort } from './ports';

type NatsConnection = Awaited<ReturnType<typeof connect>>;

/** The NATS the app event tests use (NATS_URL, as `.ci/run` sets it), or undefined: then they do not run. */
export function natsUrlForTests(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env['NATS_URL'];
  return url === undefined || url === '' ? undefined : url;
}

/** Called from each app's jest global setup: with NATS_URL unset, says in one line that test/events/ did not run. */
export function announceSkippedEventTests(env: NodeJS.ProcessEnv = process.env): void {
  if (natsUrlForTests(env) !== undefined) return;
  const line =
    "event tests (test/events/) not run: NATS_URL is unset (.ci/run runs them in steps of their own against the machine's NATS, nats://127.0.0.1:4222)";
  if (natsTestsRequired(env)) throw new Error(`${line}; NATS_TESTS=required`);
  process.stderr.write(`${line}\n`);
}

export type NatsServerLookup = { found: true; version: string } | { found: false; reason: string };

/** The `nats-server` binary on PATH (`nats-server --version`), or why there is none. */
export function findNatsServer(env: NodeJS.ProcessEnv = process.env): NatsServerLookup {
  const run = spawnSync('nats-server', ['--version'], { encoding: 'utf8', env });
  if (run.status === 0) return { found: true, version: run.stdout.trim() };
  const why = run.error
    ? run.error.message
    : `nats-server --version exited ${run.status}: ${run.stderr.trim()}`;
  return { found: false, reason: `no nats-server on PATH (${why}; apt-get install nats-server)` };
}

/** NATS_TESTS=required: a missing nats-server (or NATS_URL for app event tests) fails instead of being reported. */
export function natsTestsRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['NATS_TESTS'] === 'required';
}

/**
 * For a test file that starts nats-servers of its own: true with the binary; without it, prints one
 * line saying the tests were not run and registers one test that fails when NATS_TESTS=required
 * (and passes otherwise, having said so). Call it at the top of the file.
 */
export function natsServerForTests(suite: string, lookup: NatsServerLookup = findNatsServer()): boolean {
  if (lookup.found) return true;
  const line = `${suite}: NATS server tests NOT run: ${lookup.reason}`;
  if (!natsTestsRequired()) process.stderr.write(`${line}\n`);
  it('has a nats-server to run the NATS tests (required when NATS_TESTS=required)', () => {
    if (natsTestsRequired()) throw new Error(`${line}; NATS_TESTS=required`);
  });
  return false;
}

/** A JetStream-enabled nats-server of a test's own on 127.0.0.1, keeping its store across stop/kill and start. */
export type NatsServer = {
  /** nats://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** JetStream's store directory (-sd). */
  readonly storeDir: string;
  /** SIGTERM, resolved once the process has exited (a no-op when not running). */
  stop(): Promise<void>;
  /** SIGKILL, resolved once the process has exited (a no-op when not running). */
  kill(): Promise<void>;
  /**
   * SIGSTOP: the server freezes with its connections open (as a hung or partitioned server); what
   * clients send waits in its sockets' receive queues. resume() (SIGCONT) continues it.
   */
  pause(): void;
  resume(): void;
  /** Bytes its connections (open, or closed by the client) have received and it has not read yet (Linux /proc/net/tcp). */
  unreadBytes(): Promise<number>;
  /** Starts it again on the same port and store directory, resolved once it accepts connections. */
  start(): Promise<void>;
  /** stop(), then removes the store directory when startNatsServer created it. */
  close(): Promise<void>;
};

const READY_TIMEOUT_MS = 10_000;
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Servers left running when the test process ends are killed with it, not left behind. */
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of running) c.kill('SIGKILL');
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts `nats-server -js -a 127.0.0.1 -p <free port> -sd <storeDir or a fresh temp dir>`, resolved once ready. */
export async function startNatsServer(options: { storeDir?: string } = {}): Promise<NatsServer> {
  const ownStore = options.storeDir === undefined;
  const storeDir = options.storeDir ?? (await mkdtemp(path.join(tmpdir(), 'nats-js-')));
  let child: ChildProcess | undefined;
  let port = 0;

  const launch = async (): Promise<void> => {
    const url = `nats://127.0.0.1:${port}`;
    const proc = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    killOnExit(proc);
    let stderr = '';
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-8_000);
    });
    let spawnError: Error | undefined;
    proc.once('error', (err) => (spawnError = err));
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let lastError = '';
    for (;;) {
      if (spawnError) throw new Error(`nats-server could not be started: ${spawnError.message}`);
      if (proc.exitCode !== null || proc.signalCode !== null) {
        throw new Error(
          `nats-server on port ${port} exited (${proc.exitCode ?? proc.signalCode}) before accepting connections:\n${stderr}`,
        );
      }
      try {
        const nc = await connect({ servers: url, reconnect: false, timeout: 1_000 });
        try {
          // Connected is not enough after a restart: JetStream answers once it has recovered its store.
          await (await jetstreamManager(nc, { timeout: 1_000 })).getAccountInfo();
          child = proc;
          return;
        } finally {
          await nc.close();
        }
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
      }
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        await exited(proc);
        throw new Error(
          `nats-server on port ${port} not ready within ${READY_TIMEOUT_MS} ms (last: ${lastError}):\n${stderr}`,
        );
      }
      await delay(50);
    }
  };

  // The chosen port may be taken between freePort() and the server binding it: choose another then.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (err) {
      const taken = err instanceof Error && /address already in use/i.test(err.message);
      if (!taken || attempt >= 3) {
        if (ownStore) await rm(storeDir, { recursive: true, force: true });
        throw err;
      }
    }
  }

  let paused = false;
  const signal = async (sig: NodeJS.Signals): Promise<void> => {
    const proc = child;
    if (proc === undefined) return;
    child = undefined;
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill(sig);
      // A stopped process acts on SIGTERM only once continued.
      if (paused) proc.kill('SIGCONT');
    }
    paused = false;
    await exited(proc);
  };

  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    pause: () => {
      if (child === undefined) throw new Error(`nats-server on port ${port} is not running`);
      child.kill('SIGSTOP');
      paused = true;
    },
    resume: () => {
      if (child === undefined) throw new Error(`nats-server on port ${port} is not running`);
      child.kill('SIGCONT');
      paused = false;
    },
    unreadBytes: () => unreadBytesOnPort(port),
    start: async () => {
      if (child !== undefined && child.exitCode === null && child.signalCode === null) {
        throw new Error(`nats-server on port ${port} is already running`);
      }
      await launch();
    },
    close: async () => {
      await signal('SIGTERM');
      if (ownStore) await rm(storeDir, { recursive: true, force: true });
    },
  };
}

/** The receive queues of the IPv4 TCP connections (not the listener) whose local port is `port`, summed. */
async function unreadBytesOnPort(port: number): Promise<number> {
  const table = await readFile('/proc/net/tcp', 'utf8');
  const localPort = port.toString(16).toUpperCase().padStart(4, '0');
  let total = 0;
  for (const line of table.split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue ...
    const [, local, , state, queues] = line.trim().split(/\s+/);
    // 0A: the listening socket (its queue counts connections, not bytes).
    if (local?.split(':')[1] !== localPort || state === '0A' || queues === undefined) continue;
    total += parseInt(queues.split(':')[1] ?? '0', 16);
  }
  return total;
}

/** A stream name and subject prefix of one test file's own: `{ stream: 'T_<LABEL>_<hex>', subjectPrefix: 't<hex>.' }`. */
export function uniqueEventNames(label: string): { stream: string; subjectPrefix: string } {
  const random = randomBytes(4).toString('hex');
  const safe =
    label
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'EVENTS';
  return { stream: `T_${safe}_${random.toUpperCase()}`, subjectPrefix: `t${random}.` };
}

/** One message of the watched stream. */
export type ReceivedEvent = {
  subject: string;
  streamSequence: number;
  /** The Nats-Msg-Id header. */
  msgId: string | undefined;
  /** The Content-Type header. */
  contentType: string | undefined;
  /** The JSON-parsed body ({} when it is not a JSON object: see jsonError). */
  event: Record<string, unknown>;
  /** Why the body is not a JSON object, when it is not. */
  jsonError?: string;
  /** The raw body. */
  body: string;
  /** JetStream's redelivery flag for this delivery (a consumer artifact, never set for a stream duplicate). */
  redelivered: boolean;
};

/** What watchEvents collects. */
export type EventWatch = {
  /** Every message of the stream so far, in stream order (each stream sequence once). */
  readonly events: ReceivedEvent[];
  /** Resolves with the events once at least `count` arrived (or the predicate holds); rejects listing what arrived. */
  waitFor(
    count: number | ((events: readonly ReceivedEvent[]) => boolean),
    timeoutMs?: number,
  ): Promise<ReceivedEvent[]>;
  /** Resolves with the events once none arrived for `quietMs` (from the call on); rejects past `timeoutMs`. */
  settled(quietMs?: number, timeoutMs?: number): Promise<ReceivedEvent[]>;
  close(): Promise<void>;
};

/** Options for connections of the helpers: keep trying while a test's own server is down and restarted. */
function connectionOptions(url: string, name: string): NodeConnectionOptions {
  return { servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 100, timeout: 5_000 };
}

async function withNats<T>(url: string, name: string, work: (nc: NatsConnection) => Promise<T>): Promise<T> {
  const nc = await connect({ ...connectionOptions(url, name), reconnect: false });
  try {
    return await work(nc);
  } finally {
    await nc.close();
  }
}

function isStreamNotFound(err: unknown): boolean {
  return (
    err instanceof Error && (err.name === 'StreamNotFoundError' || /stream not found/i.test(err.message))
  );
}

function header(msg: JsMsg, name: string): string | undefined {
  const value = msg.headers?.get(name);
  return value === undefined || value === '' ? undefined : value;
}

function received(msg: JsMsg): ReceivedEvent {
  const body = msg.string();
  let event: Record<string, unknown> = {};
  let jsonError: string | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      event = parsed as Record<string, unknown>;
    } else {
      jsonError = 'body is JSON but not an object';
    }
  } catch (err) {
    jsonError = err instanceof Error ? err.message : String(err);
  }
  return {
    subject: msg.subject,
    streamSequence: msg.seq,
    msgId: header(msg, 'Nats-Msg-Id'),
    contentType: header(msg, 'Content-Type'),
    event,
    ...(jsonError === undefined ? {} : { jsonError }),
    body,
    redelivered: msg.redelivered,
  };
}

function describeEvents(events: readonly ReceivedEvent[]): string {
  if (events.length === 0) return 'none arrived';
  const lines = events.map((e) => {
    const { type, sequence } = e.event;
    return `  #${e.streamSequence} ${e.subject} id=${e.msgId ?? '-'} type=${String(type)} sequence=${String(sequence)}${
      e.jsonError ? ` (body not a JSON object: ${e.jsonError})` : ''
    }`;
  });
  return `${events.length} arrived:\n${lines.join('\n')}`;
}

/**
 * Waits (≤10 s) until `stream` exists, then collects every message of it from the first on with an
 * ordered consumer (only those on `filterSubject`, when given). Close it when done.
 */
export async function watchEvents(
  url: string,
  options: { stream: string; filterSubject?: string },
): Promise<EventWatch> {
  const { stream, filterSubject } = options;
  const what = `stream ${stream}${filterSubject ? ` (filter ${filterSubject})` : ''} on ${url}`;
  const nc = await connect(connectionOptions(url, `watchEvents ${stream}`));
  try {
    const jsm = await jetstreamManager(nc);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      try {
        await jsm.streams.info(stream);
        break;
      } catch (err) {
        if (!isStreamNotFound(err) || Date.now() > deadline) {
          throw new Error(
            isStreamNotFound(err)
              ? `${what}: no such stream after ${READY_TIMEOUT_MS} ms (the service creates it at start-up: is it running with EVENTS_STREAM=${stream}?)`
              : `${what}: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }
      await delay(50);
    }
    const consumer = await jetstream(nc).consumers.get(stream, {
      deliver_policy: DeliverPolicy.All,
      ...(filterSubject === undefined ? {} : { filter_subjects: filterSubject }),
    });
    // Short pulls: after a restart of a test's own server the consumer re-checks (and is recreated)
    // within seconds; the library's default (30 s) would outlast a test's waits.
    const messages = await consumer.consume({ expires: 2_000 });

    const events: ReceivedEvent[] = [];
    const seen = new Set<number>();
    const listeners = new Set<() => void>();
    let failure: Error | undefined;
    let closed = false;
    const notify = () => {
      for (const listener of [...listeners]) listener();
    };
    const loop = (async () => {
      try {
        for await (const msg of messages) {
          // An ordered consumer resumes after the last sequence it saw; skip any it sees again anyway.
          if (seen.has(msg.seq)) continue;
          seen.add(msg.seq);
          events.push(received(msg));
          notify();
        }
      } catch (err) {
        if (!closed) failure = err instanceof Error ? err : new Error(String(err));
      }
      if (!closed && failure === undefined) failure = new Error(`${what}: the consumer stopped`);
      notify();
    })();

    /** Resolves when `done()` holds, checked now and after each event; rejects with `explain()` at the deadline. */
    const until = (done: () => boolean, timeoutMs: number, explain: () => string): Promise<ReceivedEvent[]> =>
      new Promise((resolve, reject) => {
        const finish = (error?: Error) => {
          listeners.delete(check);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve([...events]);
        };
        const check = () => {
          if (done()) finish();
          else if (failure) finish(new Error(`${explain()} (${failure.message})`));
        };
        const timer = setTimeout(() => finish(new Error(explain())), timeoutMs);
        listeners.add(check);
        check();
      });

    return {
      events,
      waitFor: (count, timeoutMs = 10_000) => {
        const done = typeof count === 'number' ? () => events.length >= count : () => count(events);
        const wanted = typeof count === 'number' ? `${count} events` : 'the expected events';
        return until(
          done,
          timeoutMs,
          () => `${what}: waited ${timeoutMs} ms for ${wanted}; ${describeEvents(events)}`,
        );
      },
      settled: (quietMs = 500, timeoutMs = 10_000) =>
        new Promise<ReceivedEvent[]>((resolve, reject) => {
          let quiet: NodeJS.Timeout | undefined;
          const finish = (error?: Error) => {
            listeners.delete(onEvent);
            clearTimeout(quiet);
            clearTimeout(limit);
            if (error) reject(error);
            else resolve([...events]);
          };
          const onEvent = () => {
            if (failure) return finish(new Error(`${what}: ${failure.message}; ${describeEvents(events)}`));
            clearTimeout(quiet);
            quiet = setTimeout(() => finish(), quietMs);
          };
          const limit = setTimeout(
            () =>
              finish(
                new Error(`${what}: events still arriving after ${timeoutMs} ms; ${describeEvents(events)}`),
              ),
            timeoutMs,
          );
          listeners.add(onEvent);
          onEvent();
        }),
      close: async () => {
        if (closed) return;
        closed = true;
        await messages.close();
        await loop;
        await nc.close();
      },
    };
  } catch (err) {
    await nc.close();
    throw err;
  }
}

/** Deletes `stream`; false when there was none. */
export async function deleteStream(url: string, stream: string): Promise<boolean> {
  return withNats(url, 'deleteStream', async (nc) => {
    try {
      return await (await jetstreamManager(nc)).streams.delete(stream);
    } catch (err) {
      if (isStreamNotFound(err)) return false;
      throw err;
    }
  });
}

/** What a stream holds and how it is configured, for assertions. */
export type StreamSummary = {
  messages: number;
  firstSequence: number;
  lastSequence: number;
  subjects: string[];
  /** The window in which JetStream drops a message whose Nats-Msg-Id it has seen. */
  duplicateWindowMs: number;
  /** 0: unlimited. */
  maxAgeMs: number;
  replicas: number;
};

/** `stream`'s message count, sequences, subjects, duplicate window, max age and replicas. */
export async function streamInfo(url: string, stream: string): Promise<StreamSummary> {
  return withNats(url, 'streamInfo', async (nc) => {
    const { config, state } = await (await jetstreamManager(nc)).streams.info(stream);
    return {
      messages: state.messages,
      firstSequence: state.first_seq,
      lastSequence: state.last_seq,
      subjects: config.subjects ?? [],
      duplicateWindowMs: Math.round(config.duplicate_window / 1e6),
      maxAgeMs: Math.round(config.max_age / 1e6),
      replicas: config.num_replicas,
    };
  });
}

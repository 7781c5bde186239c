// Shared by the change-event fault tests (test/events/*-fault.test.ts): the built service as a
// process with events on, timed writes through HTTP, its log and metrics, and the audit of what the
// stream holds (duplicates, gaps, order per resource).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import {
  createTestDatabase,
  metricSample,
  startServiceProcess,
  type ReceivedEvent,
  type ServiceProcess,
  type TestDatabase,
} from '@repo/testing';
import { ADMIN_PRINCIPAL, bearer, TEST_JWT_SECRET } from '../app';

const APP_DIR = path.resolve(__dirname, '../..');

/** The built service's data: a PostgreSQL database of its own (DATABASE_URL set) or a PGlite DATA_DIR. */
export interface FaultHome {
  /** The database's URL on PostgreSQL, else undefined (PGlite in dataDir). */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /** Starts `node dist/main.js` on this data (more than one at a time: replicas, on PostgreSQL). */
  start(env: Record<string, string>): Promise<ServiceProcess>;
  remove(): Promise<void>;
}

/**
 * Runs `sql` on the home's database: through a connection of its own on PostgreSQL; on PGlite by
 * opening DATA_DIR here, so only while no service process has it open.
 */
export async function queryHome<T>(home: FaultHome, sql: string, parameters: unknown[] = []): Promise<T[]> {
  if (home.databaseUrl) {
    const client = new Client({ connectionString: home.databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql, parameters)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const pglite = new PGlite(home.dataDir);
  try {
    return (await pglite.query<T>(sql, parameters)).rows;
  } finally {
    await pglite.close();
  }
}

export async function faultHome(): Promise<FaultHome> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'project-service-events-'));
  let database: TestDatabase | undefined;
  if (process.env['DATABASE_URL']) database = await createTestDatabase();
  const databaseUrl = database?.source.kind === 'postgres' ? database.source.url : undefined;
  return {
    databaseUrl,
    dataDir,
    start: (env) =>
      startServiceProcess(APP_DIR, {
        JWT_SECRET: TEST_JWT_SECRET,
        ADMIN_PRINCIPALS: ADMIN_PRINCIPAL,
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...env,
      }),
    remove: async () => {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const adminHeaders = { Authorization: bearer(ADMIN_PRINCIPAL) };

/** The events variables of a service process publishing to `natsUrl` on its own stream. */
export function eventsEnv(
  natsUrl: string,
  names: { stream: string; subjectPrefix: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NATS_URL: natsUrl,
    EVENTS_STREAM: names.stream,
    EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
    PUBLIC_URL: 'http://project-service.test/',
    // The service's own shutdown is not under test: SIGTERM ends it quickly.
    SHUTDOWN_DRAIN_MS: '0',
    SHUTDOWN_GRACE_MS: '1000',
    ...extra,
  };
}

export interface WriteOutcome {
  method: string;
  path: string;
  requestId: string;
  /** 0 when no response came. */
  status: number;
  error?: string;
  ms: number;
  syncStatus?: string;
  body: unknown;
}

let requests = 0;
/** An X-Request-Id no other request of this test process uses. */
export function nextRequestId(label: string): string {
  requests += 1;
  return `${label}-${process.pid}-${requests}`;
}

/** One JSON write (or read) as the admin, timed; network failures are outcomes, not throws. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; sync?: boolean; requestId?: string } = {},
): Promise<WriteOutcome> {
  const requestId = options.requestId ?? nextRequestId('w');
  const started = performance.now();
  try {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: {
        ...adminHeaders,
        'X-Request-Id': requestId,
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(options.sync ? { 'X-Sync': 'true' } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return {
      method,
      path,
      requestId,
      status: response.status,
      ms: performance.now() - started,
      syncStatus: response.headers.get('x-sync-status') ?? undefined,
      body,
    };
  } catch (error) {
    return {
      method,
      path,
      requestId,
      status: 0,
      error: error instanceof Error ? error.message : String(error),
      ms: performance.now() - started,
      body: undefined,
    };
  }
}

/** The root project's uid. */
export async function rootUidOf(baseUrl: string): Promise<string> {
  const response = await send(baseUrl, 'GET', '/projects?slug=root');
  const root = (response.body as { projects?: { uid: string }[] }).projects?.[0];
  if (!root) throw new Error(`no root project: ${response.status} ${JSON.stringify(response.body)}`);
  return root.uid;
}

let slugs = 0;
export function faultSlug(label: string): string {
  slugs += 1;
  return `${label}-${process.pid}-${slugs}-${Math.random().toString(36).slice(2, 7)}`;
}

export interface Project {
  uid: string;
  slug: string;
}

/** A create under `parent`. */
export function createProject(baseUrl: string, parent: string, label: string, sync = false) {
  return send(baseUrl, 'POST', '/projects', {
    body: { slug: faultSlug(label), name: `${label} project`, description: 'fault test', parent_uid: parent },
    sync,
  });
}

/** An update of the base (a new name) or of the settings (a new writer), as `index` picks. */
export function updateProject(
  baseUrl: string,
  project: Project,
  parent: string,
  index: number,
  sync = false,
) {
  return index % 2 === 0
    ? send(baseUrl, 'PUT', `/projects/${project.uid}`, {
        body: { slug: project.slug, name: `renamed ${index}`, description: 'fault test', parent_uid: parent },
        sync,
      })
    : send(baseUrl, 'PUT', `/projects/${project.uid}/settings`, {
        body: { writers: [{ username: `writer-${index}` }] },
        sync,
      });
}

export function projectOf(outcome: WriteOutcome): Project {
  if (outcome.status !== 201)
    throw new Error(`create failed: ${outcome.status} ${outcome.error ?? JSON.stringify(outcome.body)}`);
  return outcome.body as Project;
}

/** Runs `tasks` with at most `concurrency` at a time, in order of start; resolves with their results. */
export async function pool<T>(tasks: (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) {
        const index = next;
        next += 1;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

/** Polls `check` every 50 ms until it returns a value other than undefined, or throws with `what` past `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The service's JSON log lines (pino: level 40 is warn). */
export function logRecords(service: ServiceProcess): { level: number; msg: string }[] {
  return service.output.flatMap((line) => {
    try {
      const record = JSON.parse(line) as { level?: unknown; msg?: unknown };
      return typeof record.level === 'number' && typeof record.msg === 'string'
        ? [{ level: record.level, msg: record.msg }]
        : [];
    } catch {
      return [];
    }
  });
}

/** The warn lines (and worse) about events. */
export function eventWarnings(service: ServiceProcess): string[] {
  return logRecords(service)
    .filter((record) => record.level >= 40 && record.msg.startsWith('events:'))
    .map((record) => record.msg);
}

/** GET /metrics of the process. */
export async function metricsOf(baseUrl: string): Promise<string> {
  const response = await fetch(new URL('/metrics', baseUrl), { signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200) throw new Error(`GET /metrics: ${response.status}`);
  return response.text();
}

/** A metric without labels (`name value`), or undefined. */
export function plainSample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

/** The sum of a counter's samples over all its labels. */
export function counterTotal(text: string, name: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

export { metricSample };

/** What the stream holds, checked for the guarantees: each event once, each resource's in order, no gaps. */
export interface StreamAudit {
  messages: number;
  distinctIds: number;
  /** Messages whose Nats-Msg-Id (= event id) an earlier message had. */
  duplicates: number;
  /** Messages whose Nats-Msg-Id differs from the event's id, or whose body is not an event. */
  malformed: string[];
  /** Resources whose sequences are not strictly increasing in stream order. */
  outOfOrder: string[];
  /** Resources whose sequences are not 1, 2, …, n (a gap: a lost event). */
  gaps: string[];
  /** Events by requestid (those with one). */
  byRequestId: Map<string, ReceivedEvent[]>;
  resources: number;
}

export function auditStream(events: readonly ReceivedEvent[]): StreamAudit {
  const ids = new Set<string>();
  let duplicates = 0;
  const malformed: string[] = [];
  const sequences = new Map<string, number[]>();
  const byRequestId = new Map<string, ReceivedEvent[]>();
  for (const received of events) {
    const id = received.event['id'];
    if (received.jsonError !== undefined || typeof id !== 'string' || received.msgId !== id) {
      malformed.push(
        `#${received.streamSequence} ${received.subject} msgId=${received.msgId} id=${String(id)}`,
      );
    }
    const key = received.msgId ?? `#${received.streamSequence}`;
    if (ids.has(key)) duplicates += 1;
    ids.add(key);
    const resource = `${String(received.event['type']).split('.')[0]}:${String(received.event['subject'])}`;
    sequences.set(resource, [...(sequences.get(resource) ?? []), Number(received.event['sequence'])]);
    const requestId = received.event['requestid'];
    if (typeof requestId === 'string')
      byRequestId.set(requestId, [...(byRequestId.get(requestId) ?? []), received]);
  }
  const outOfOrder: string[] = [];
  const gaps: string[] = [];
  for (const [resource, list] of sequences) {
    if (list.some((sequence, index) => index > 0 && sequence <= list[index - 1]!))
      outOfOrder.push(`${resource}: ${list.join(',')}`);
    if (list.some((sequence, index) => sequence !== index + 1)) gaps.push(`${resource}: ${list.join(',')}`);
  }
  return {
    messages: events.length,
    distinctIds: ids.size,
    duplicates,
    malformed,
    outOfOrder,
    gaps,
    byRequestId,
    resources: sequences.size,
  };
}

/** The acknowledged writes (2xx) whose event is not in the stream, and those whose event is there more than once. */
export function unmatchedWrites(
  writes: readonly WriteOutcome[],
  audit: StreamAudit,
): { lost: string[]; twice: string[] } {
  const acknowledged = writes.filter((write) => write.status >= 200 && write.status < 300);
  return {
    lost: acknowledged
      .filter((write) => !audit.byRequestId.has(write.requestId))
      .map((write) => `${write.method} ${write.path} (${write.requestId})`),
    twice: acknowledged
      .filter((write) => (audit.byRequestId.get(write.requestId)?.length ?? 0) > 1)
      .map((write) => `${write.method} ${write.path} (${write.requestId})`),
  };
}

/** Stops the process: SIGKILL, resolved once it has exited. */
export async function killProcess(service: ServiceProcess | undefined): Promise<void> {
  if (!service) return;
  if (service.child.exitCode === null && service.child.signalCode === null) service.kill('SIGKILL');
  await service.exited;
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

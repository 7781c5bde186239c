/**
 * The writes with change events on (issue 22's Performance): the service started a second time on
 * the same database with NATS_URL (the machine's NATS, JetStream on) and a stream and subject
 * prefix of the run's own, deleted at the end. Each write scenario runs against the service with
 * events off (the bench's) and on, in alternating rounds, at BENCH_EVENTS_CONNECTIONS (16); then PUT
 * base with and without `X-Sync: true` on the events-on service. After the rounds: the outbox must
 * drain (events_outbox_depth 0 on /metrics) and every recorded event be in the stream.
 *
 * BENCH_NATS_URL names the NATS (nats://127.0.0.1:4222); unreachable, the rows are not run (one line
 * says so). `pnpm run bench -- --only events` runs these rows alone, `--only x-sync` the X-Sync
 * ones (BENCH_XSYNC_CONNECTIONS, 1,16).
 */
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { deleteStream, streamInfo, uniqueEventNames } from '@repo/testing';
import {
  runVariantPair,
  selected,
  withClient,
  type Scenario,
  type ServerProcess,
  type VariantContext,
  type VariantRow,
  type VariantSection,
} from '@repo/testing/bench';

const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const DRAIN_TIMEOUT_MS = 60_000;

/** Why JetStream at `url` cannot be used, or undefined when it can. */
async function natsUnavailable(url: string): Promise<string | undefined> {
  try {
    const connection = await connect({ servers: url, timeout: 2000, reconnect: false });
    try {
      await (await jetstreamManager(connection, { timeout: 2000 })).getAccountInfo();
      return undefined;
    } finally {
      await connection.close();
    }
  } catch (error) {
    return (error as Error).message;
  }
}

/** The sum of `name`'s series on the service's /metrics (those of GET /metrics itself left out). */
async function metric(server: ServerProcess, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const values = [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm'))]
    .filter((m) => !m[1]?.includes('route="/metrics"'))
    .map((m) => Number(m[2]));
  return values.length ? values.reduce((sum, value) => sum + value, 0) : undefined;
}

/** Waits until the outbox is empty by /metrics; the milliseconds it took, or undefined past the bound. */
async function drained(server: ServerProcess): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < DRAIN_TIMEOUT_MS) {
    if ((await metric(server, 'events_outbox_depth')) === 0) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/**
 * Waits until `servers` have answered every request the last load left in flight (their
 * http_requests_total still for 100 ms), so the next load's ETags, read from the database, are
 * the ones those requests' commits left (else its first requests meet 412s).
 */
async function settled(servers: ServerProcess[]): Promise<void> {
  const total = async () => {
    let sum = 0;
    for (const server of servers) sum += (await metric(server, 'http_requests_total')) ?? 0;
    return sum;
  };
  const deadline = performance.now() + 30_000;
  let last = await total();
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await total();
    if (now === last) return;
    last = now;
  }
}

const afterSettling =
  (servers: ServerProcess[], load: Scenario['load']): Scenario['load'] =>
  async (url, connections) => {
    await settled(servers);
    return load(url, connections);
  };

const withHeader =
  (load: Scenario['load'], name: string, value: string): Scenario['load'] =>
  async (url, connections) => {
    const spec = await load(url, connections);
    return { ...spec, headers: { ...spec.headers, [name]: value } };
  };

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * The database as its autovacuum would leave it after the write rounds: the tables they churned
 * vacuumed and analyzed, and no autovacuum worker left running on it (at most 60 s), so that the
 * X-Sync rows measure X-Sync and not the maintenance of tens of thousands of fresh writes (at one
 * connection that maintenance doubled the CPU per request and moved p50 by up to 15 ms).
 */
async function maintained(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    await client.query('VACUUM (ANALYZE) projects, project_members, event_outbox, event_sequences');
    const deadline = performance.now() + 60_000;
    while (performance.now() < deadline) {
      const { rows } = await client.query<{ workers: number }>(
        `SELECT count(*)::int AS workers FROM pg_stat_activity
         WHERE backend_type = 'autovacuum worker' AND datname = current_database()`,
      );
      if (rows[0]?.workers === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
}

/**
 * The events sections: `writes` are the bench's write scenarios (POST, PUT base, PUT settings),
 * `base` the PUT base one (X-Sync is measured on it).
 */
export async function eventSections<Seeded>(
  context: VariantContext<Seeded>,
  writes: Scenario[],
  base: Scenario,
): Promise<VariantSection[]> {
  const writesWanted = selected('events');
  if (!writesWanted && !selected('x-sync')) return [];
  const why = await natsUnavailable(NATS_URL);
  if (why) {
    console.log(`events rows not run: no JetStream at ${NATS_URL} (${why}); BENCH_NATS_URL names another`);
    return [];
  }
  const names = uniqueEventNames('bench project-service');
  const connections = (process.env.BENCH_EVENTS_CONNECTIONS ?? '16').split(',').map(Number);
  // X-Sync also at 1 connection: its added latency without queueing behind other writes.
  const syncConnections = (process.env.BENCH_XSYNC_CONNECTIONS ?? '1,16').split(',').map(Number);
  console.log(`events on: ${NATS_URL}, stream ${names.stream}, subjects ${names.subjectPrefix}projects.>`);
  const on = await context.startService({
    NATS_URL,
    EVENTS_STREAM: names.stream,
    EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
  });
  const off = context.servers.service;
  const quiet = (scenario: Scenario): Scenario['load'] => afterSettling([off, on], scenario.load);
  // CPU per request: the loaded server's and the database's backends (both servers' pools: the idle
  // one's use next to none). Not nats-server's: other users of the machine's NATS would count in it.
  const backends = () =>
    withClient(context.databaseUrl, async (client) => {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return rows.map((row) => row.pid);
    });
  const processes = (server: ServerProcess) => async () => [server.pid, ...(await backends())];
  // Statements per request, the relay's (claims, marks) included: db_query_duration_seconds' count.
  const statements = (server: ServerProcess) => async () =>
    (await metric(server, 'db_query_duration_seconds_count')) ?? 0;
  try {
    const rows: VariantRow[] = [];
    for (const scenario of writesWanted ? writes : []) {
      for (const count of connections) {
        rows.push(
          await runVariantPair(
            scenario.name,
            {
              off: {
                url: off.url,
                load: quiet(scenario),
                processes: processes(off),
                statements: statements(off),
              },
              on: {
                url: on.url,
                load: quiet(scenario),
                processes: processes(on),
                statements: statements(on),
              },
            },
            count,
            context.settings,
          ),
        );
      }
    }
    const syncRows: VariantRow[] = [];
    for (const count of syncConnections) {
      await maintained(context.databaseUrl);
      syncRows.push(
        await runVariantPair(
          `${base.name}, events on`,
          {
            off: { url: on.url, load: quiet(base), processes: processes(on), statements: statements(on) },
            on: {
              url: on.url,
              load: withHeader(quiet(base), 'X-Sync', 'true'),
              processes: processes(on),
              statements: statements(on),
            },
          },
          count,
          context.settings,
        ),
      );
    }
    // The X-Sync answers' status, once the load is over: published, not pending.
    const probe = await base.load(on.url, 1);
    const target = probe.mode.kind === 'per-connection' ? probe.mode.targets[0] : undefined;
    let syncStatus = 'not checked';
    if (target) {
      const response = await fetch(`${on.url}${target.path}`, {
        method: 'PUT',
        headers: { ...probe.headers, 'X-Sync': 'true', ...(target.etag ? { 'If-Match': target.etag } : {}) },
        body: target.body,
      });
      await response.arrayBuffer();
      syncStatus = `${response.status}, X-Sync-Status ${response.headers.get('x-sync-status') ?? 'absent'}`;
    }

    const drainMs = await drained(on);
    const counts = await withClient(context.databaseUrl, async (client) => {
      const {
        rows: [row],
      } = await client.query<{ recorded: number; published: number }>(
        `SELECT count(*)::int AS recorded, count(published_at)::int AS published FROM event_outbox`,
      );
      return row!;
    });
    const stream = await streamInfo(NATS_URL, names.stream);
    const publishedTotal = await metric(on, 'events_published_total');

    const notes: string[] = [];
    for (const row of rows) {
      const cost = (1 - row.ratio) * 100;
      const cpu =
        row.on.cpuMsPerRequest !== undefined && row.off.cpuMsPerRequest !== undefined
          ? `, CPU per write +${(((row.on.cpuMsPerRequest - row.off.cpuMsPerRequest) / row.off.cpuMsPerRequest) * 100).toFixed(0)}%`
          : '';
      notes.push(
        `${row.scenario} @${row.connections}: events on cost ${cost.toFixed(1)}% of write throughput ` +
          `(target at most 10% at 16 connections), p50 +${ms(row.on.p50 - row.off.p50)}${cpu}`,
      );
    }
    notes.push(
      drainMs === undefined
        ? `outbox NOT drained ${DRAIN_TIMEOUT_MS / 1000} s after the last round: ` +
            `${counts.recorded - counts.published} of ${counts.recorded} events unpublished`
        : `outbox drained (events_outbox_depth 0) ${ms(drainMs)} after the last round; ` +
            `${counts.published} of ${counts.recorded} recorded events published ` +
            `(events_published_total ${publishedTotal ?? '?'}, stream ${names.stream} holds ${stream.messages})`,
    );
    const syncNotes = syncRows.map(
      (row) =>
        `X-Sync: true @${row.connections} adds ${ms(row.on.p50 - row.off.p50)} to p50 ` +
        `(${row.off.p50} → ${row.on.p50} ms; target under 5 ms), throughput ×${row.ratio.toFixed(2)}; ` +
        `a PUT with X-Sync after the load: ${syncStatus}`,
    );
    const writeSections: VariantSection[] = [
      {
        title: 'Writes with change events off vs on (NATS JetStream on this machine)',
        offLabel: 'events off',
        onLabel: 'events on',
        rows,
        notes,
      },
    ];
    return [
      ...(writesWanted ? writeSections : []),
      {
        title: 'X-Sync: true vs without (events on)',
        offLabel: 'no X-Sync',
        onLabel: 'X-Sync: true',
        rows: syncRows,
        notes: [...syncNotes, ...(writesWanted ? [] : notes.slice(-1))],
      },
    ];
  } finally {
    await on.stop();
    await deleteStream(NATS_URL, names.stream);
  }
}

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The migration lock on PostgreSQL: a session-level advisory lock, asked for with
 * pg_try_advisory_lock every POLL_MS until it is granted. Never pg_advisory_lock: a statement
 * blocked in it is an open transaction with a snapshot, and the holder's CREATE INDEX CONCURRENTLY
 * waits for every such transaction to end, so the holder would wait for its waiters while they
 * wait for it (a deadlock PostgreSQL cannot see: half of it is in the application). Between tries
 * a waiter's session is idle: no transaction, no snapshot, nothing for a build to wait for.
 *
 * Each runner's sessions say what they do in their application_name (pg_stat_activity):
 * `<lockKey> waiting|holding|applying <runner>`, `<runner>` a random tag of the runner. The waiting
 * ones are counted as the lock's waiters, and a runner that gives up names the holder and what
 * its applying session is busy with.
 */
const POLL_MS = 200;

/** The advisory lock `key` names (hashtext), held by a granted session lock of this database. */
const HELD_LOCK = `l.locktype = 'advisory' AND l.objsubid = 1
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtext($1)::bigint`;

export type RunnerRole = 'waiting' | 'holding' | 'applying';

/** A session's application_name (at most 63 bytes, as PostgreSQL keeps it). */
export function sessionName(lockKey: string, role: RunnerRole, runner: string): string {
  return `${lockKey} ${role} ${runner}`.slice(0, 63);
}

export interface LockSession {
  /** This runner's tag: its applying sessions are named `sessionName(lockKey, 'applying', runner)`. */
  readonly runner: string;
  /**
   * Resolves true once the lock is held, false when `deadline` (epoch ms) comes first; `onBusy`
   * runs once, when the first try finds the lock held.
   */
  acquire(deadline: number, onBusy?: () => Promise<void>): Promise<boolean>;
  /** Who holds the lock and what it is applying, as a phrase for a message. */
  describeHolder(): Promise<string>;
  /** What this runner's applying sessions are busy with, as a phrase for a message. */
  describeApplying(): Promise<string>;
  /** Cancels the statements this runner's applying sessions run. */
  cancelApplying(): Promise<void>;
}

/** Runs `task` with a session of its own on `url` that can take the lock `lockKey`; released after. */
export async function withLockSession<T>(
  url: string,
  lockKey: string,
  task: (session: LockSession) => Promise<T>,
): Promise<T> {
  const runner = randomBytes(4).toString('hex');
  // Bounded: a server that never answers is reported at start-up instead of hanging it.
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    application_name: sessionName(lockKey, 'waiting', runner),
  });
  await client.connect();
  let held = false;
  const session: LockSession = {
    runner,
    async acquire(deadline, onBusy) {
      for (let tries = 0; ; tries += 1) {
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
          [lockKey],
        );
        if (rows[0]?.locked) {
          held = true;
          await client.query(`SELECT set_config('application_name', $1, false)`, [
            sessionName(lockKey, 'holding', runner),
          ]);
          return true;
        }
        if (tries === 0) await onBusy?.();
        if (Date.now() + POLL_MS > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    describeHolder: () => describeHolder(client, lockKey),
    describeApplying: () => describeApplying(client, sessionName(lockKey, 'applying', runner)),
    async cancelApplying() {
      await client.query(
        `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
          WHERE application_name = $1 AND datname = current_database() AND state = 'active'`,
        [sessionName(lockKey, 'applying', runner)],
      );
    },
  };
  try {
    return await task(session);
  } finally {
    if (held) await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/** How many runners are waiting for the lock `lockKey` on `client`'s database right now. */
export async function countWaiters(client: Client, lockKey: string): Promise<number> {
  const { rows } = await client.query<{ waiting: number }>(
    `SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND starts_with(application_name, $1)`,
    [`${lockKey} waiting `],
  );
  return rows[0]?.waiting ?? 0;
}

async function describeHolder(client: Client, lockKey: string): Promise<string> {
  const { rows } = await client.query<{ pid: number; name: string; client: string | null }>(
    `SELECT a.pid, a.application_name AS name, host(a.client_addr) AS client
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.granted AND ${HELD_LOCK}`,
    [lockKey],
  );
  const holder = rows[0];
  if (!holder) return 'the migration lock, released just now';
  const from = holder.client ? ` from ${holder.client}` : '';
  const prefix = sessionName(lockKey, 'holding', '');
  const applying = holder.name.startsWith(prefix)
    ? await describeApplying(client, sessionName(lockKey, 'applying', holder.name.slice(prefix.length)))
    : 'not applying migrations (a session that is no runner of this service holds it)';
  return `the migration lock, held by PostgreSQL backend ${holder.pid}${from}, ${applying}`;
}

/** `applying <migration>, waiting (<event>) for backend <pid> (<state>)`, as far as it is known. */
async function describeApplying(client: Client, applyingName: string): Promise<string> {
  const { rows: sessions } = await client.query<{
    wait: string | null;
    blockers: string[];
  }>(
    `SELECT a.wait_event_type || ': ' || a.wait_event AS wait,
            array(SELECT b.pid || ' (' || coalesce(b.state, 'unknown state')
                         || coalesce(', ' || nullif(b.application_name, ''), '') || ')'
                    FROM pg_stat_activity b WHERE b.pid = ANY (pg_blocking_pids(a.pid))) AS blockers
       FROM pg_stat_activity a
      WHERE a.application_name = $1 AND a.datname = current_database() AND a.state = 'active'`,
    [applyingName],
  );
  const { rows: migrations } = await client
    .query<{ name: string }>(
      `SELECT migration_name AS name FROM _prisma_migrations
      WHERE finished_at IS NULL AND rolled_back_at IS NULL ORDER BY started_at DESC LIMIT 1`,
    )
    // No such table yet: the first migration has not begun.
    .catch(() => ({ rows: [] as { name: string }[] }));
  const migration = migrations[0] ? `applying ${migrations[0].name}` : 'applying the migrations';
  const waiting = sessions.find((session) => session.wait);
  if (!waiting) return migration;
  const blockers = waiting.blockers.length ? ` for backend ${waiting.blockers.join(', backend ')}` : '';
  return `${migration}, waiting (${waiting.wait})${blockers}`;
}

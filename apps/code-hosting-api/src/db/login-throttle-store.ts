import {
  COUNTER_KINDS,
  type CounterKind,
  type CounterSettlement,
  type CounterState,
  type FailureCounting,
  type LoginKeys,
  type LoginThrottleStore,
  type Refusal,
} from '../domain/login-throttle-store';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { prepared } from './prepared-statements';

// The failed-login counters (login_failures) and trusted pairs (trusted_logins) as the domain's
// contract states them (src/domain/login-throttle-store.ts). Each method is one statement; every
// time is the database's now(), so replicas with different clocks count alike. Statements that
// change several counters take their rows in COUNTER_KINDS order (VALUES in that order, ORDER BY
// kind), and the cleanup skips rows others hold, so two of them never wait on each other in a cycle.

/** The counters' (kind, key, limit) rows, in COUNTER_KINDS order. */
function counterRows(keys: LoginKeys, counting: FailureCounting): Prisma.Sql {
  return Prisma.join(
    COUNTER_KINDS.map(
      (kind) => Prisma.sql`(${kind}::text, ${keys[kind]}::text, ${counting.limits[kind]}::int)`,
    ),
  );
}

/** The value of `values` for the kind in the column `kind` (an ON CONFLICT update sees only the row). */
function byKind(kind: Prisma.Sql, values: Record<CounterKind, Prisma.Sql>): Prisma.Sql {
  return Prisma.sql`(CASE ${kind} WHEN 'account' THEN ${values.account} WHEN 'address' THEN ${values.address} ELSE ${values.pair} END)`;
}

function limitOf(kind: Prisma.Sql, counting: FailureCounting): Prisma.Sql {
  return byKind(kind, {
    account: Prisma.sql`${counting.limits.account}::int`,
    address: Prisma.sql`${counting.limits.address}::int`,
    pair: Prisma.sql`${counting.limits.pair}::int`,
  });
}

function windowStart(counting: FailureCounting): Prisma.Sql {
  return Prisma.sql`now() - make_interval(secs => ${counting.windowSeconds}::float8)`;
}

/** Until when a counter with `failures` refuses, given its `limit` (null below the limit). */
function blockedUntil(failures: Prisma.Sql, limit: Prisma.Sql, counting: FailureCounting): Prisma.Sql {
  return Prisma.sql`(CASE WHEN ${failures} >= ${limit} THEN now() + make_interval(secs => LEAST(
    ${counting.maxDelaySeconds}::float8,
    ${counting.baseDelaySeconds}::float8 * power(2::float8, LEAST(${failures} - ${limit}, ${counting.maxExponent}::int))
  )) END)`;
}

/** How long the counter row `f` still refuses, in milliseconds (0 when it does not). */
const WAIT_MS = Prisma.sql`(CASE WHEN f.blocked_until > now()
  THEN EXTRACT(EPOCH FROM f.blocked_until - now()) * 1000 ELSE 0 END)::float8`;

/** Whether the counter row `f` refuses because of an attempt counted ahead and not failed yet. */
const REFUSES_AHEAD = Prisma.sql`coalesce(f.blocked_until > now() AND f.blocked_ahead, false)`;

/**
 * INSERT … ON CONFLICT that counts one failure on each counter row of `source` (columns kind, key,
 * lim): a new counter starts at 1; one whose window passed and that refuses nothing starts over
 * at 1; past its limit it refuses for base · 2^(failures − limit) seconds, at most the maximum.
 * `ahead`: the attempt is counted ahead of its password check; a counter that refuses (as committed
 * when its row is locked) is left as it is, and a refusal this count starts is marked blocked_ahead.
 * Otherwise the failure is a real one, and every refusal of these counters is real from now on.
 */
function countFailure(source: Prisma.Sql, counting: FailureCounting, ahead: boolean): Prisma.Sql {
  const limit = limitOf(Prisma.sql`f.kind`, counting);
  const expired = Prisma.sql`((f.blocked_until IS NULL OR f.blocked_until <= now()) AND f.last_failure_at < ${windowStart(counting)})`;
  const failures = Prisma.sql`(CASE WHEN ${expired} THEN 1 ELSE f.failures + 1 END)`;
  return Prisma.sql`INSERT INTO login_failures AS f (kind, key, failures, last_failure_at, blocked_until, blocked_ahead)
    SELECT s.kind, s.key, 1, now(), ${blockedUntil(Prisma.sql`1`, Prisma.sql`s.lim`, counting)},
      ${ahead}::boolean AND 1 >= s.lim
    FROM ${source} s
    ORDER BY s.kind
    ON CONFLICT (kind, key) DO UPDATE SET
      failures = ${failures},
      last_failure_at = now(),
      blocked_until = CASE
        WHEN ${failures} >= ${limit} THEN ${blockedUntil(failures, limit, counting)}
        WHEN ${expired} THEN NULL
        ELSE f.blocked_until END,
      blocked_ahead = ${ahead}::boolean AND ${failures} >= ${limit}
    ${ahead ? Prisma.sql`WHERE f.blocked_until IS NULL OR f.blocked_until <= now()` : Prisma.empty}`;
}

interface AttemptRow {
  kind: CounterKind;
  waitMs: number;
  refusesAhead: boolean;
  failures: number;
  counted: boolean;
  blockedByThis: boolean;
  trustedForMs: number | null;
}

export function loginThrottleStore(prisma: PrismaClient): LoginThrottleStore {
  return {
    async beginLoginAttempt(keys, counting, trustedForSeconds) {
      // The read and the count ahead in one statement: the counters as the statement's snapshot
      // has them decide whether to count, and the count itself re-checks each row as committed.
      const rows = await prisma.$queryRaw<AttemptRow[]>(
        prepared(
          'login_attempt',
          Prisma.sql`
        WITH counters AS MATERIALIZED (
          SELECT v.kind, v.key, v.lim, ${WAIT_MS} AS wait_ms, ${REFUSES_AHEAD} AS refuses_ahead,
            CASE WHEN f.blocked_until > now() OR f.last_failure_at >= ${windowStart(counting)}
              THEN f.failures ELSE 0 END AS failures
          FROM (VALUES ${counterRows(keys, counting)}) AS v (kind, key, lim)
          LEFT JOIN login_failures f ON f.kind = v.kind AND f.key = v.key
        ), trust AS MATERIALIZED (
          SELECT (EXTRACT(EPOCH FROM now() - t.trusted_at) * 1000)::float8 AS trusted_for_ms
          FROM trusted_logins t
          WHERE t.account = ${keys.account}::text AND t.address = ${keys.address}::text
            AND t.trusted_at > now() - make_interval(secs => ${trustedForSeconds}::float8)
        ), counted AS (
          ${countFailure(
            Prisma.sql`(SELECT c.kind, c.key, c.lim FROM counters c
              WHERE c.lim > 0 AND NOT EXISTS (SELECT FROM trust)
                AND NOT EXISTS (SELECT FROM counters b WHERE b.lim > 0 AND b.wait_ms > 0))`,
            counting,
            true,
          )}
          RETURNING f.kind, f.blocked_ahead
        )
        SELECT c.kind, c.wait_ms AS "waitMs", c.refuses_ahead AS "refusesAhead", c.failures,
          EXISTS (SELECT FROM counted x WHERE x.kind = c.kind) AS counted,
          EXISTS (SELECT FROM counted x WHERE x.kind = c.kind AND x.blocked_ahead) AS "blockedByThis",
          (SELECT trusted_for_ms FROM trust) AS "trustedForMs"
        FROM counters c`,
        ),
      );
      const counters = Object.fromEntries(
        rows.map(({ kind, trustedForMs: _trust, ...counter }) => [kind, counter]),
      ) as Record<CounterKind, CounterState>;
      return { counters, trustedForMs: rows[0]?.trustedForMs ?? undefined };
    },

    async recordLoginFailure(keys, counting) {
      await prisma.$executeRaw(
        prepared(
          'login_failure',
          countFailure(
            Prisma.sql`(SELECT * FROM (VALUES ${counterRows(keys, counting)}) AS v (kind, key, lim) WHERE v.lim > 0)`,
            counting,
            false,
          ),
        ),
      );
    },

    async confirmLoginFailure(keys, kinds) {
      // The rows locked in COUNTER_KINDS order, as every statement here does.
      await prisma.$executeRaw(
        prepared(
          'login_confirm',
          Prisma.sql`
        UPDATE login_failures AS f SET blocked_ahead = false
        FROM (
          SELECT l.kind, l.key FROM login_failures l
          JOIN (VALUES ${Prisma.join(
            COUNTER_KINDS.map(
              (kind) => Prisma.sql`(${kind}::text, ${keys[kind]}::text, ${kinds.includes(kind)}::boolean)`,
            ),
          )}) AS v (kind, key, confirm) ON v.confirm AND l.kind = v.kind AND l.key = v.key
          WHERE l.blocked_ahead
          ORDER BY l.kind
          FOR UPDATE OF l
        ) AS c
        WHERE f.kind = c.kind AND f.key = c.key`,
        ),
      );
    },

    async settleLoginAttempt(keys, counting, settlements, trust) {
      const settlement = (kind: CounterKind) => Prisma.sql`${settlements[kind]}::text`;
      // Whether the conflicting row `f` is one to take a failure back from (else to start over).
      const undoing = Prisma.sql`${byKind(Prisma.sql`f.kind`, {
        account: settlement('account'),
        address: settlement('address'),
        pair: settlement('pair'),
      })} = 'undo'`;
      const rows = await prisma.$queryRaw<({ kind: CounterKind } & Refusal)[]>(
        prepared(
          'login_settle',
          Prisma.sql`
        WITH settled AS (
          INSERT INTO login_failures AS f (kind, key, failures, last_failure_at, blocked_until)
          SELECT v.kind, v.key, 0, now(), NULL::timestamptz
          FROM (VALUES ${Prisma.join(
            COUNTER_KINDS.map(
              (kind) => Prisma.sql`(${kind}::text, ${keys[kind]}::text, ${settlement(kind)})`,
            ),
          )}) AS v (kind, key, settlement)
          WHERE v.settlement <> ${'none' satisfies CounterSettlement}
            AND EXISTS (SELECT FROM login_failures e WHERE e.kind = v.kind AND e.key = v.key)
          ORDER BY v.kind
          ON CONFLICT (kind, key) DO UPDATE SET
            failures = CASE WHEN ${undoing} THEN GREATEST(f.failures - 1, 0) ELSE 0 END,
            blocked_until = CASE WHEN ${undoing} AND f.failures - 1 >= ${limitOf(Prisma.sql`f.kind`, counting)}
              THEN f.blocked_until END,
            blocked_ahead = ${undoing} AND f.blocked_ahead
          RETURNING f.kind
        ), trusted AS (
          -- After the counters (it reads their result): every statement locks them first.
          INSERT INTO trusted_logins AS t (account, address, trusted_at)
          SELECT ${keys.account}::text, ${keys.address}::text, now()
          FROM (SELECT count(*) FROM settled) AS s
          WHERE ${trust}::boolean
          ON CONFLICT (account, address) DO UPDATE SET trusted_at = EXCLUDED.trusted_at
        )
        SELECT v.kind, ${WAIT_MS} AS "waitMs", ${REFUSES_AHEAD} AS "refusesAhead"
        FROM (VALUES ${counterRows(keys, counting)}) AS v (kind, key, lim)
        LEFT JOIN login_failures f ON f.kind = v.kind AND f.key = v.key`,
        ),
      );
      return Object.fromEntries(rows.map(({ kind, ...refusal }) => [kind, refusal])) as Record<
        CounterKind,
        Refusal
      >;
    },

    async deleteStaleLoginState(counting, trustedForSeconds, maxEntries) {
      // Per kind, the failure time of the newest row past `maxEntries` (null when there are fewer):
      // it and older ones go, refusing or not; the rest only once they start over anyway.
      await prisma.$executeRaw`
        WITH cutoffs AS MATERIALIZED (
          SELECT k.kind, (
            SELECT f.last_failure_at FROM login_failures f
            WHERE f.kind = k.kind ORDER BY f.last_failure_at DESC OFFSET ${maxEntries}::int LIMIT 1
          ) AS cutoff
          FROM (VALUES ('account'), ('address'), ('pair')) AS k (kind)
        ), stale AS (
          SELECT s.kind, s.key
          FROM cutoffs c CROSS JOIN LATERAL (
            SELECT f.kind, f.key FROM login_failures f
            WHERE f.kind = c.kind
              AND f.last_failure_at <= GREATEST(c.cutoff, ${windowStart(counting)})
              AND (f.last_failure_at <= c.cutoff
                OR (f.last_failure_at < ${windowStart(counting)} AND (f.blocked_until IS NULL OR f.blocked_until <= now())))
            FOR UPDATE OF f SKIP LOCKED
          ) AS s
        ), trust_overflow AS (
          SELECT t.trusted_at AS cutoff FROM trusted_logins t
          ORDER BY t.trusted_at DESC OFFSET ${maxEntries}::int LIMIT 1
        ), stale_trust AS (
          SELECT t.account, t.address FROM trusted_logins t
          WHERE t.trusted_at <= GREATEST((SELECT cutoff FROM trust_overflow),
            now() - make_interval(secs => ${trustedForSeconds}::float8))
          FOR UPDATE OF t SKIP LOCKED
        ), deleted AS (
          DELETE FROM login_failures d USING stale s WHERE d.kind = s.kind AND d.key = s.key
        )
        DELETE FROM trusted_logins d USING stale_trust s WHERE d.account = s.account AND d.address = s.address`;
    },
  };
}

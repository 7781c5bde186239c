import { createTestDatabase, type TestDatabase } from '@repo/testing';
import { connectPrisma, type Database } from '../src/db/database';
import { loginThrottleStore } from '../src/db/login-throttle-store';
import { LoginThrottle, type LoginThrottleSettings } from '../src/domain/login-throttle';
import type { FailureCounting } from '../src/domain/login-throttle-store';

// The failed-login backoff's state in the database (login_failures, trusted_logins), below the
// HTTP tests (test/login-throttle.test.ts): what the statements leave in the tables when attempts
// race on PostgreSQL's connections, how the tables stay bounded, and how long keys are stored.

// A refusal lasts a minute at least: far longer than any case here, so none of them sees one end
// (with a 1 s refusal a slow machine let a fourth racing attempt through once the first refusal
// had ended, which is right, and not what the race case asserts).
const settings: LoginThrottleSettings = {
  windowSeconds: 60,
  pairFailures: 3,
  addressFailures: 8,
  accountFailures: 10,
  baseDelaySeconds: 60,
  maxDelaySeconds: 240,
  maxEntries: 1000,
  // Held attempts wait for those in flight far longer than any slow machine takes to settle them.
  inFlightWaitMs: 30_000,
};

const counting: FailureCounting = {
  windowSeconds: settings.windowSeconds,
  limits: {
    account: settings.accountFailures,
    address: settings.addressFailures,
    pair: settings.pairFailures,
  },
  baseDelaySeconds: settings.baseDelaySeconds,
  maxDelaySeconds: settings.maxDelaySeconds,
  maxExponent: 2,
};

const thirtyDays = 30 * 24 * 3600;

let testDatabase: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = connectPrisma(testDatabase.source);
});

afterAll(async () => {
  await database?.close();
  await testDatabase?.drop();
});

interface CounterRow {
  kind: string;
  key: string;
  failures: number;
  blocked: boolean;
}

async function counters(): Promise<CounterRow[]> {
  return database.prisma.$queryRaw<CounterRow[]>`
    SELECT kind, key, failures, coalesce(blocked_until > now(), false) AS blocked
    FROM login_failures ORDER BY kind, key`;
}

async function trustedPairs(): Promise<string[]> {
  const rows = await database.prisma.$queryRaw<{ account: string; address: string }[]>`
    SELECT account, address FROM trusted_logins ORDER BY account, address`;
  return rows.map((row) => `${row.account} ${row.address}`);
}

async function clear(): Promise<void> {
  await database.prisma.$executeRaw`DELETE FROM login_failures`;
  await database.prisma.$executeRaw`DELETE FROM trusted_logins`;
}

beforeEach(clear);

describe('attempts that race', () => {
  it('let exactly the pair limit through, and the counters end at what was checked', async () => {
    const throttle = new LoginThrottle(loginThrottleStore(database.prisma), settings);
    // On PostgreSQL these run on the pool's 10 connections at once.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, async () => {
        const attempt = await throttle.attempt('Alice', '203.0.113.7');
        await attempt.failed();
      }),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    const refusals = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refusals.map((refusal) => (refusal.reason as { status: number }).status)).toEqual(
      Array(37).fill(429),
    );
    // Refused attempts counted nothing (those counted ahead in a race were taken back).
    expect(await counters()).toEqual([
      { kind: 'account', key: 'alice', failures: 3, blocked: false },
      { kind: 'address', key: '203.0.113.7', failures: 3, blocked: false },
      { kind: 'pair', key: 'alice\n203.0.113.7', failures: 3, blocked: true },
    ]);
  });

  it('a success takes back its count ahead and trusts the pair; a trusted pair counts only real failures', async () => {
    const throttle = new LoginThrottle(loginThrottleStore(database.prisma), settings);
    await (await throttle.attempt('bob', '203.0.113.8')).failed();
    await (await throttle.attempt('bob', '203.0.113.8')).succeeded();
    expect(await counters()).toEqual([
      { kind: 'account', key: 'bob', failures: 1, blocked: false },
      { kind: 'address', key: '203.0.113.8', failures: 0, blocked: false },
      { kind: 'pair', key: 'bob\n203.0.113.8', failures: 0, blocked: false },
    ]);
    expect(await trustedPairs()).toEqual(['bob 203.0.113.8']);
    // Trusted: parallel successes count nothing at any moment, so none is refused.
    await Promise.all(
      Array.from({ length: 20 }, async () => (await throttle.attempt('bob', '203.0.113.8')).succeeded()),
    );
    await (await throttle.attempt('bob', '203.0.113.8')).failed();
    expect((await counters()).map((row) => row.failures)).toEqual([2, 1, 1]);
  });
});

/** 'pending' while `promise` has not settled within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<'settled' | 'pending'> {
  const settled = promise.then(
    () => 'settled' as const,
    () => 'settled' as const,
  );
  return Promise.race([
    settled,
    new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);
}

describe('a refusal started by attempts in flight', () => {
  it('holds the next attempt until one of them succeeds, then lets it through', async () => {
    const throttle = new LoginThrottle(loginThrottleStore(database.prisma), settings);
    const inFlight = [];
    for (let i = 0; i < settings.pairFailures; i += 1)
      inFlight.push(await throttle.attempt('carol', '203.0.113.9'));
    const next = throttle.attempt('carol', '203.0.113.9');
    expect(await settledWithin(next, 150)).toBe('pending');
    await inFlight[1]!.succeeded();
    await (await next).succeeded();
    expect(await trustedPairs()).toEqual(['carol 203.0.113.9']);
  });

  it('refuses the held attempts once the attempt that started the refusal fails', async () => {
    const throttle = new LoginThrottle(loginThrottleStore(database.prisma), settings);
    const inFlight = [];
    for (let i = 0; i < settings.pairFailures; i += 1)
      inFlight.push(await throttle.attempt('dave', '203.0.113.10'));
    const held = Array.from({ length: 5 }, () => throttle.attempt('dave', '203.0.113.10'));
    // An earlier attempt's failure settles nothing: the last one counted may still succeed.
    await inFlight[0]!.failed();
    expect(await settledWithin(Promise.any(held), 150)).toBe('pending');
    await inFlight[settings.pairFailures - 1]!.failed();
    const outcomes = await Promise.allSettled(held);
    expect(
      outcomes.map(
        (outcome) => outcome.status === 'rejected' && (outcome.reason as { status: number }).status,
      ),
    ).toEqual(Array(5).fill(429));
    const pair = (await counters()).find((row) => row.kind === 'pair');
    expect(pair).toEqual({ kind: 'pair', key: 'dave\n203.0.113.10', failures: 3, blocked: true });
  });

  it('refuses at once when the refusal is a real one', async () => {
    const throttle = new LoginThrottle(loginThrottleStore(database.prisma), settings);
    for (let i = 0; i < settings.pairFailures; i += 1)
      await (await throttle.attempt('erin', '203.0.113.11')).failed();
    const started = Date.now();
    await expect(throttle.attempt('erin', '203.0.113.11')).rejects.toMatchObject({ status: 429 });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('the tables stay bounded', () => {
  it('deletes the counters that start over anyway, and trusted pairs past 30 days; keeps the rest', async () => {
    await database.prisma.$executeRaw`
      INSERT INTO login_failures (kind, key, failures, last_failure_at, blocked_until) VALUES
        ('pair', 'old', 2, now() - interval '61 seconds', NULL),
        ('pair', 'old-was-blocked', 5, now() - interval '10 minutes', now() - interval '1 second'),
        ('pair', 'old-still-blocked', 9, now() - interval '10 minutes', now() + interval '1 minute'),
        ('address', 'recent', 1, now() - interval '30 seconds', NULL),
        ('account', 'old', 4, now() - interval '1 hour', NULL)`;
    await database.prisma.$executeRaw`
      INSERT INTO trusted_logins (account, address, trusted_at) VALUES
        ('alice', 'home', now() - interval '29 days'),
        ('alice', 'hotel', now() - interval '31 days')`;
    await loginThrottleStore(database.prisma).deleteStaleLoginState(counting, thirtyDays, 1000);
    expect((await counters()).map((row) => `${row.kind} ${row.key}`)).toEqual([
      'address recent',
      'pair old-still-blocked',
    ]);
    expect(await trustedPairs()).toEqual(['alice home']);
  });

  it('keeps at most maxEntries rows per counter kind and of trusted pairs, the most recent', async () => {
    for (let index = 0; index < 5; index += 1) {
      await database.prisma.$executeRaw`
        INSERT INTO login_failures (kind, key, failures, last_failure_at, blocked_until) VALUES
          ('address', ${`a${index}`}, 1, now() - make_interval(secs => ${index}::int), NULL),
          ('pair', ${`p${index}`}, 9, now() - make_interval(secs => ${index}::int), now() + interval '1 minute')`;
      await database.prisma.$executeRaw`
        INSERT INTO trusted_logins (account, address, trusted_at)
        VALUES ('alice', ${`t${index}`}, now() - make_interval(secs => ${index}::int))`;
    }
    await loginThrottleStore(database.prisma).deleteStaleLoginState(counting, thirtyDays, 2);
    expect((await counters()).map((row) => `${row.kind} ${row.key}`)).toEqual([
      'address a0',
      'address a1',
      'pair p0',
      'pair p1',
    ]);
    expect(await trustedPairs()).toEqual(['alice t0', 'alice t1']);
  });

  it('every 100th write of a process deletes the stale rows, in the background', async () => {
    const errors: unknown[] = [];
    const throttle = new LoginThrottle(loginThrottleStore(database.prisma), settings, (error) =>
      errors.push(error),
    );
    await database.prisma.$executeRaw`
      INSERT INTO login_failures (kind, key, failures, last_failure_at)
      VALUES ('pair', 'stale', 2, now() - interval '1 hour')`;
    const stale = async () => (await counters()).some((row) => row.key === 'stale');
    // Each attempt of a new pair from a new address counts ahead: one write.
    for (let index = 0; index < 99; index += 1) {
      await throttle.attempt(`user-${index}`, `198.51.100.${index}`);
    }
    await throttle.settled();
    expect(await stale()).toBe(true);
    await throttle.attempt('user-99', '198.51.100.99');
    await throttle.settled();
    expect(await stale()).toBe(false);
    expect(errors).toEqual([]);
  });
});

describe('keys', () => {
  it('are bounded and storable, whatever the user name and the address', async () => {
    const throttle = new LoginThrottle(loginThrottleStore(database.prisma), settings);
    const attempt = await throttle.attempt(`${'Ü'.repeat(10_000)}\0`, 'x'.repeat(100_000));
    await attempt.succeeded();
    const keys = (await counters()).map((row) => row.key.length);
    expect(Math.max(...keys)).toBeLessThanOrEqual(64 + 1 + 64);
    expect(await trustedPairs()).toEqual([`${'ü'.repeat(64)} ${'x'.repeat(64)}`]);
    await (await throttle.attempt('nul\0name', '203.0.113.9')).failed();
    expect((await counters()).map((row) => row.key)).toContain('nul\uFFFDname');
  });
});

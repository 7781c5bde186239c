import { createHttpError } from '@repo/http-errors';

/**
 * Backoff on failed password logins (HTTP Basic with a password), kept in this process's
 * memory: each replica counts on its own, so N replicas allow up to N times the limits.
 *
 * Three counters, each over a sliding window of the last failure:
 * - per (account, address) pair: the strict limit, what a guesser on one account meets;
 * - per address, any account: an address spraying many accounts;
 * - per account, any address: a guesser spread over many addresses; much higher, and not
 *   applied to (account, address) pairs that logged in successfully before, so a crowd of
 *   attackers cannot lock the real user out of the addresses they use.
 * Past a limit every attempt is refused (429, Retry-After) without looking at the password
 * for base · 2^(failures − limit) seconds, at most the maximum delay. A success from an
 * address clears its pair and the address's own counter.
 *
 * An attempt from a pair that never logged in counts as a failure as soon as it is let through,
 * and a success takes it back: otherwise parallel guesses would all pass the check before the
 * first failure is recorded. A pair that logged in before counts only its real failures, so a
 * client sending many Basic-auth requests at once with the right password is never refused.
 */
export interface LoginThrottleSettings {
  /** Failures older than this (since the last failure) are forgotten. */
  windowSeconds: number;
  /** Failures allowed per (account, address) pair before backoff; 0 disables the counter. */
  pairFailures: number;
  /** Failures allowed per address, any account; 0 disables the counter. */
  addressFailures: number;
  /** Failures allowed per account from addresses it never logged in from; 0 disables the counter. */
  accountFailures: number;
  /** First refusal period; it doubles with every failure past a limit. */
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  /** Entries kept per counter (least recently failed dropped first): bounds the memory. */
  maxEntries: number;
}

export const defaultLoginThrottleSettings: LoginThrottleSettings = {
  windowSeconds: 900,
  pairFailures: 5,
  addressFailures: 30,
  accountFailures: 100,
  baseDelaySeconds: 1,
  maxDelaySeconds: 900,
  maxEntries: 20_000,
};

/** How long a successful (account, address) pair stays exempt from the account and address limits. */
const trustedForMs = 30 * 24 * 3600 * 1000;

interface Counter {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

/** One counter kind: failures per key, with a bounded number of keys. */
class FailureCounters {
  private readonly entries = new Map<string, Counter>();

  constructor(
    private readonly limit: number,
    private readonly settings: LoginThrottleSettings,
  ) {}

  private current(key: string, now: number): Counter | undefined {
    const entry = this.entries.get(key);
    if (
      entry &&
      entry.blockedUntil <= now &&
      now - entry.lastFailureAt > this.settings.windowSeconds * 1000
    ) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Milliseconds until the key may try again; 0 when it may now. */
  waitMs(key: string, now: number): number {
    if (this.limit <= 0) return 0;
    return Math.max(0, (this.current(key, now)?.blockedUntil ?? 0) - now);
  }

  fail(key: string, now: number): void {
    if (this.limit <= 0) return;
    const entry = this.current(key, now) ?? { failures: 0, lastFailureAt: now, blockedUntil: 0 };
    entry.failures += 1;
    entry.lastFailureAt = now;
    if (entry.failures >= this.limit) {
      const delay = Math.min(
        this.settings.maxDelaySeconds,
        this.settings.baseDelaySeconds * 2 ** (entry.failures - this.limit),
      );
      entry.blockedUntil = now + delay * 1000;
    }
    // Re-inserted: Map order is then least recently failed first, which is what gets dropped.
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.settings.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Takes back one failure counted ahead of an attempt that succeeded. */
  undo(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.failures = Math.max(0, entry.failures - 1);
    if (entry.failures < this.limit) entry.blockedUntil = 0;
  }

  reset(key: string): void {
    this.entries.delete(key);
  }
}

/** One password check let through by the throttle. */
export interface LoginAttempt {
  succeeded(): void;
  failed(): void;
}

export class LoginThrottle {
  private readonly pairs: FailureCounters;
  private readonly addresses: FailureCounters;
  private readonly accounts: FailureCounters;
  /** (account, address) pairs with a successful login: when it was. */
  private readonly trusted = new Map<string, number>();

  constructor(
    private readonly settings: LoginThrottleSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.pairs = new FailureCounters(settings.pairFailures, settings);
    this.addresses = new FailureCounters(settings.addressFailures, settings);
    this.accounts = new FailureCounters(settings.accountFailures, settings);
  }

  /**
   * Before a password is checked: 429 with Retry-After while any counter refuses; otherwise the
   * attempt, to be reported `succeeded` or `failed` once the password was checked.
   */
  attempt(username: string, address: string): LoginAttempt {
    const now = this.now();
    const account = accountKey(username);
    const pair = `${account}\n${address}`;
    const trusted = this.isTrusted(pair, now);
    const waitMs = Math.max(
      this.pairs.waitMs(pair, now),
      trusted ? 0 : this.addresses.waitMs(address, now),
      trusted ? 0 : this.accounts.waitMs(account, now),
    );
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw createHttpError(429, `too many failed login attempts; retry in ${seconds} s`, {
        headers: { 'Retry-After': String(seconds) },
      });
    }
    const fail = () => {
      const at = this.now();
      this.pairs.fail(pair, at);
      this.addresses.fail(address, at);
      this.accounts.fail(account, at);
    };
    if (!trusted) fail();
    return {
      failed: () => {
        if (trusted) fail();
      },
      succeeded: () => this.succeeded(account, address, pair, !trusted),
    };
  }

  /** The password was right: the pair and the address start over, and the pair is trusted. */
  private succeeded(account: string, address: string, pair: string, countedAhead: boolean): void {
    this.pairs.reset(pair);
    this.addresses.reset(address);
    if (countedAhead) this.accounts.undo(account);
    this.trusted.delete(pair);
    this.trusted.set(pair, this.now());
    while (this.trusted.size > this.settings.maxEntries) {
      this.trusted.delete(this.trusted.keys().next().value as string);
    }
  }

  private isTrusted(pair: string, now: number): boolean {
    const since = this.trusted.get(pair);
    return since !== undefined && now - since < trustedForMs;
  }
}

/** Account names are case-insensitive and at most 40 characters: longer ones share a key. */
function accountKey(username: string): string {
  return username.toLowerCase().slice(0, 64);
}

import { createHttpError } from '@repo/http-errors';
import {
  COUNTER_KINDS,
  type AttemptState,
  type CounterKind,
  type FailureCounting,
  type LoginKeys,
  type LoginThrottleStore,
  type Refusal,
} from './login-throttle-store';

/**
 * Backoff on failed password logins (HTTP Basic with a password), kept in the service's database
 * (login_failures, trusted_logins: src/db/login-throttle-store.ts) so that every replica counts the
 * same attempts, by the database's clock; a restart forgets nothing.
 *
 * Three counters, each over a sliding window of the last failure:
 * - per (account, address) pair: the strict limit, what a guesser on one account meets;
 * - per address, any account: an address spraying many accounts;
 * - per account, any address: a guesser spread over many addresses; much higher, and not
 *   applied to (account, address) pairs that logged in successfully before, so a crowd of
 *   attackers cannot lock the real user out of the addresses they use.
 * Past a limit every attempt is refused (429, Retry-After) without looking at the password
 * for base · 2^(failures − limit) seconds, at most the maximum delay; a refused attempt is not
 * counted. A success from an address clears its pair and the address's own counter.
 *
 * An attempt from a pair that never logged in counts as a failure as soon as it is let through,
 * and a success takes it back: otherwise parallel guesses would all pass the check before the
 * first failure is recorded. Reading the counters and counting ahead are one statement, each
 * counter counted only while it does not refuse: when a parallel attempt made one refuse between
 * the read and the count, what this attempt counted is taken back. A refusal that comes from an
 * attempt counted ahead is not final while that attempt's password check runs: attempts meeting it
 * wait (up to two seconds) and look again; the first success clears it, and the failure of the
 * attempt that made it refuse confirms it (429 for those waiting). So a client sending many
 * Basic-auth requests at once with the right password is never refused, from a new address too,
 * while parallel guesses still get no more than the limit checked. A pair that logged in before
 * (within 30 days of its last success) counts only its real failures.
 *
 * Statements per password login: one before the password check (two when a parallel attempt won
 * the race above, and one more each time an attempt looks again), then one after a success (none
 * for a pair trusted within the last minute with nothing to clear: its trust is renewed at most
 * once a minute), after a trusted pair's failure, or after the failure of an attempt whose count
 * ahead made a counter refuse.
 * Every 100th write of a process also deletes the stale rows (deleteStaleLoginState), which keeps
 * the tables at about LOGIN_THROTTLE_MAX_ENTRIES rows per counter kind at most.
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
  /**
   * Rows kept per counter kind, and of trusted pairs: past it the cleanup deletes the least
   * recently failed (trusted) first. Bounds the tables.
   */
  maxEntries: number;
  /**
   * How long an attempt waits for the attempts in flight that fill a counter (a password check
   * takes milliseconds): 2 s when not given. Not an environment variable; tests on a loaded
   * machine give it longer.
   */
  inFlightWaitMs?: number;
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
const trustedForSeconds = 30 * 24 * 3600;

/** A trusted pair's success with nothing to clear renews its trust only when it is older than this. */
const trustRenewalMs = 60_000;

/**
 * How long an attempt waits for the attempts in flight that fill a counter (unless the settings
 * say), looking again after 20, 40, 80, then every 160 ms.
 */
const defaultInFlightWaitMs = 2000;
const firstPauseMs = 20;
const maxPauseMs = 160;

/** The stale rows are deleted after every this many writes of a process. */
const cleanupEvery = 100;

/** Account names are case-insensitive and at most 40 characters: longer ones share a key. */
const accountKeyLength = 64;

/** An IPv6 address with a zone is under 64 characters; a longer "address" (a forwarded header's junk) is cut. */
const addressKeyLength = 64;

/** One password check let through by the throttle: report how it went. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
}

export class LoginThrottle {
  private readonly counting: FailureCounting;
  private writes = 0;
  private readonly inFlight = new Set<Promise<void>>();

  /** `onError`: a background cleanup failed (no request waits for it). */
  constructor(
    private readonly store: LoginThrottleStore,
    private readonly settings: LoginThrottleSettings,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    const { baseDelaySeconds, maxDelaySeconds } = settings;
    this.counting = {
      windowSeconds: settings.windowSeconds,
      limits: {
        account: settings.accountFailures,
        address: settings.addressFailures,
        pair: settings.pairFailures,
      },
      baseDelaySeconds,
      maxDelaySeconds,
      maxExponent: Math.max(0, Math.ceil(Math.log2(maxDelaySeconds / baseDelaySeconds))),
    };
  }

  /**
   * Before a password is checked: 429 with Retry-After while any counter refuses; otherwise the
   * attempt, to be reported `succeeded` or `failed` once the password was checked. A refusal that
   * comes only from attempts counted ahead and still in flight is waited out (up to
   * the settings' `inFlightWaitMs`): the first of them to succeed clears it, the first to fail confirms it.
   */
  async attempt(username: string, address: string): Promise<LoginAttempt> {
    const keys = loginKeys(username, address);
    const waitUntil = Date.now() + (this.settings.inFlightWaitMs ?? defaultInFlightWaitMs);
    for (let pauseMs = firstPauseMs; ; pauseMs = Math.min(2 * pauseMs, maxPauseMs)) {
      const outcome = await this.tryAttempt(keys);
      if ('attempt' in outcome) return outcome.attempt;
      const remainingMs = waitUntil - Date.now();
      if (!outcome.refusal.refusesAhead || remainingMs <= 0) throw tooManyFailures(outcome.refusal.waitMs);
      await new Promise((resolve) => setTimeout(resolve, Math.min(pauseMs, remainingMs)));
    }
  }

  /** One look at the counters: the attempt, or the refusal that holds now. */
  private async tryAttempt(keys: LoginKeys): Promise<{ attempt: LoginAttempt } | { refusal: Refusal }> {
    const state = await this.store.beginLoginAttempt(keys, this.counting, trustedForSeconds);
    const trusted = state.trustedForMs !== undefined;
    // A trusted pair meets only its own counter.
    const checked = COUNTER_KINDS.filter(
      (kind) => this.counting.limits[kind] > 0 && (!trusted || kind === 'pair'),
    );
    const refusing = checked.filter((kind) => state.counters[kind].waitMs > 0);
    if (refusing.length > 0) return { refusal: combined(refusing.map((kind) => state.counters[kind])) };
    const counted = checked.filter((kind) => state.counters[kind].counted);
    if (counted.length > 0) this.wrote();
    if (!trusted && counted.length < checked.length)
      return { refusal: await this.lostRace(keys, checked, counted) };
    const blockedByThis = counted.filter((kind) => state.counters[kind].blockedByThis);
    return {
      attempt: {
        failed: async () => {
          if (!trusted) {
            // Counted ahead; the refusal this attempt's count started is now a real one.
            if (blockedByThis.length === 0) return;
            await this.store.confirmLoginFailure(keys, blockedByThis);
          } else {
            await this.store.recordLoginFailure(keys, this.counting);
          }
          this.wrote();
        },
        succeeded: async () => {
          if (trusted && this.nothingToSettle(state)) return;
          await this.store.settleLoginAttempt(
            keys,
            this.counting,
            { account: counted.includes('account') ? 'undo' : 'none', address: 'reset', pair: 'reset' },
            true,
          );
          this.wrote();
        },
      },
    };
  }

  /** Resolves once the cleanups started so far are done (shutdown waits for them). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /**
   * A parallel attempt made a counter refuse between this attempt's read and its count: the
   * failures this one counted ahead are taken back, and the refusal is returned to attempt(), which
   * waits and looks again while it comes from a count ahead.
   */
  private async lostRace(keys: LoginKeys, checked: CounterKind[], counted: CounterKind[]): Promise<Refusal> {
    const undo = (kind: CounterKind) => (counted.includes(kind) ? 'undo' : 'none');
    const refusals = await this.store.settleLoginAttempt(
      keys,
      this.counting,
      { account: undo('account'), address: undo('address'), pair: undo('pair') },
      false,
    );
    this.wrote();
    const refusal = combined(checked.filter((kind) => !counted.includes(kind)).map((kind) => refusals[kind]));
    // A counter that no longer refuses (the attempt that made it refuse succeeded meanwhile): look again.
    return {
      waitMs: Math.max(1, refusal.waitMs),
      refusesAhead: refusal.refusesAhead || refusal.waitMs === 0,
    };
  }

  /** A trusted pair's success: nothing to clear, and its trust renewed less than a minute ago. */
  private nothingToSettle(state: AttemptState): boolean {
    return (
      state.counters.pair.failures === 0 &&
      state.counters.address.failures === 0 &&
      (state.trustedForMs ?? Infinity) < trustRenewalMs
    );
  }

  /** Counts a write; every `cleanupEvery`-th starts the cleanup, in the background. */
  private wrote(): void {
    this.writes += 1;
    if (this.writes % cleanupEvery !== 0) return;
    const cleanup: Promise<void> = this.store
      .deleteStaleLoginState(this.counting, trustedForSeconds, this.settings.maxEntries)
      .catch((error: unknown) => {
        try {
          this.onError(error);
        } catch {
          // A failing report must not become an unhandled rejection.
        }
      })
      .finally(() => this.inFlight.delete(cleanup));
    this.inFlight.add(cleanup);
  }
}

/** Several counters' refusals as one: the longest, from a count ahead only when every one is. */
function combined(refusals: Refusal[]): Refusal {
  return {
    waitMs: Math.max(0, ...refusals.map((refusal) => refusal.waitMs)),
    refusesAhead: refusals.every((refusal) => refusal.refusesAhead),
  };
}

function tooManyFailures(waitMs: number) {
  const seconds = Math.ceil(waitMs / 1000);
  return createHttpError(429, `too many failed login attempts; retry in ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/**
 * The counters' keys: account names are case-insensitive; both parts are cut to a bounded length
 * (a key is part of an index entry) and NUL, which PostgreSQL's text cannot hold, is replaced.
 */
export function loginKeys(username: string, address: string): LoginKeys {
  const account = withoutNul(username.toLowerCase().slice(0, accountKeyLength));
  const client = withoutNul(address.slice(0, addressKeyLength));
  return { account, address: client, pair: `${account}\n${client}` };
}

function withoutNul(text: string): string {
  return text.replaceAll('\0', '\uFFFD');
}

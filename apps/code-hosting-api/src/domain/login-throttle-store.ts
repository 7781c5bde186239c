/** The three failed-login counters (src/domain/login-throttle.ts), in the order their rows are locked. */
export const COUNTER_KINDS = ['account', 'address', 'pair'] as const;

export type CounterKind = (typeof COUNTER_KINDS)[number];

/** The keys of one login attempt: the account (lower case), the address, and the pair of both. */
export type LoginKeys = Record<CounterKind, string>;

/** How every counter counts; the rules are login-throttle.ts's, the store applies them atomically. */
export interface FailureCounting {
  /** A counter whose last failure is older than this, and that blocks nothing, starts over. */
  windowSeconds: number;
  /** Failures allowed per kind before backoff; 0: the kind is not counted (nor checked). */
  limits: Record<CounterKind, number>;
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  /** The exponent past which base · 2^exponent is the maximum anyway (no overflow in the database). */
  maxExponent: number;
}

/** One counter as the attempt's statement found it. */
export interface CounterState {
  /** Failures within the window (0 for a counter that starts over). */
  failures: number;
  /** How long the counter still refuses attempts (0: it does not). */
  waitMs: number;
  /** Whether the statement counted this attempt on it ahead of the password check. */
  counted: boolean;
  /**
   * Whether its refusal comes from an attempt counted ahead whose password check has not failed
   * yet (the attempt that made it refuse may still succeed, which clears it).
   */
  refusesAhead: boolean;
  /** Whether this attempt's count ahead made it refuse (its failure must confirm the refusal). */
  blockedByThis: boolean;
}

/** A counter's refusal: how long it lasts still, and whether it comes from a count ahead (CounterState). */
export type Refusal = Pick<CounterState, 'waitMs' | 'refusesAhead'>;

export interface AttemptState {
  counters: Record<CounterKind, CounterState>;
  /** How long ago the pair last logged in successfully, when within the trust period; else undefined. */
  trustedForMs: number | undefined;
}

/** What a settlement does to each counter: start it over, take back one failure, or nothing. */
export type CounterSettlement = 'reset' | 'undo' | 'none';

/**
 * The throttle's shared state, in the database so every replica counts the same attempts. Each
 * method is one statement, atomic on its own; every counter change is by the database's clock.
 * Statements that change several counters lock their rows in COUNTER_KINDS order.
 */
export interface LoginThrottleStore {
  /**
   * Reads the three counters and whether the pair is trusted (logged in within `trustedForSeconds`)
   * and, when the pair is not trusted and no counted kind refuses, counts a failure ahead on each
   * counted kind in the same statement; a counter that a concurrent attempt made refuse meanwhile
   * is not counted (its `counted` is false).
   */
  beginLoginAttempt(
    keys: LoginKeys,
    counting: FailureCounting,
    trustedForSeconds: number,
  ): Promise<AttemptState>;
  /** Counts a failure on each counted kind (refusing or not). */
  recordLoginFailure(keys: LoginKeys, counting: FailureCounting): Promise<void>;
  /**
   * The attempt whose count ahead made the `kinds` refuse failed its password check: their
   * refusals are real from now on (no longer `refusesAhead`).
   */
  confirmLoginFailure(keys: LoginKeys, kinds: CounterKind[]): Promise<void>;
  /**
   * Applies `settlements` to the counters that exist and, with `trust`, marks the pair trusted from
   * now; returns each counter's remaining refusal as the statement found it (waitMs 0 when none).
   */
  settleLoginAttempt(
    keys: LoginKeys,
    counting: FailureCounting,
    settlements: Record<CounterKind, CounterSettlement>,
    trust: boolean,
  ): Promise<Record<CounterKind, Refusal>>;
  /**
   * Deletes the counters that start over anyway (their window passed, and they block nothing), the
   * trusted pairs older than `trustedForSeconds`, and past `maxEntries` per counter kind (and of
   * trusted pairs) the least recently failed (trusted) ones. Skips rows other statements hold.
   */
  deleteStaleLoginState(
    counting: FailureCounting,
    trustedForSeconds: number,
    maxEntries: number,
  ): Promise<void>;
}

/** How many unpaged lists may stream at once, and how long one more may wait for a turn. */
export interface ConcurrencyLimits {
  /** Requests holding a permit at once. */
  concurrency: number;
  /** How long a request waits in line for a permit before it is refused (0: refused at once). */
  queueMs: number;
}

/**
 * The unpaged list's bound (UNPAGED_LIST_CONCURRENCY, UNPAGED_LIST_QUEUE_MS): four lists stream
 * at once, each holding one batch and one database connection; a fifth waits up to 2 s for a turn.
 */
export const UNPAGED_LIST_DEFAULTS: ConcurrencyLimits = { concurrency: 4, queueMs: 2_000 };

/** Gives a permit back; calling it more than once gives it back once. */
export type Release = () => void;

interface Waiter {
  grant(release: Release): void;
  timer: NodeJS.Timeout;
}

/**
 * A counting semaphore with a short, first-come-first-served queue. The unpaged list holds a
 * permit for as long as it streams, so the memory of concurrent lists is the permit count times
 * one list's working set, whatever the number of clients.
 */
export class ConcurrencyGate {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: ConcurrencyLimits) {}

  /** Permits held now and requests in line (for tests and metrics). */
  get usage(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /** A permit, at once or after waiting in line; undefined when none came free within `queueMs`. */
  acquire(): Promise<Release | undefined> {
    if (this.active < this.limits.concurrency) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.limits.queueMs <= 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          resolve(undefined);
        }, this.limits.queueMs),
      };
      this.waiting.push(waiter);
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) {
        // The permit passes straight to the next in line: the count does not change.
        clearTimeout(next.timer);
        next.grant(this.releaser());
      } else {
        this.active -= 1;
      }
    };
  }
}

import type { TokenStore } from './token-store';

export interface TokenUseSettings {
  /** A token's `last_used_at` is written at most once per this many milliseconds. */
  intervalMs: number;
  /** Tokens whose last write this process remembers; the oldest is forgotten first. */
  maxTracked: number;
  /**
   * A background write failed: the request it came from has been answered already. `origin` is
   * what record() was given for it (the request's id), for the report to name.
   */
  onError: (error: unknown, origin: string | undefined) => void;
  /** The time a use is recorded at, in milliseconds since the epoch. */
  now: () => number;
}

/**
 * Records that a token was used, at most once per interval per token and never in the way of the
 * request: Gitea updates `updated_unix` on every use, which here cost a commit per request. The
 * write is conditional on the stored value being older than the interval, so replicas (or a
 * forgotten entry) add no extra writes either; this process skips even the statement while it
 * remembers writing less than an interval ago.
 */
export class TokenUseRecorder {
  private readonly recordedAt = new Map<number, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly now: () => number;

  constructor(
    private readonly store: Pick<TokenStore, 'touchToken'>,
    private readonly settings: TokenUseSettings,
  ) {
    this.now = settings.now;
  }

  /** Starts the write when one is due; returns at once. `origin`: what a failure's report names. */
  record(tokenId: number, origin?: string): void {
    const now = this.now();
    const last = this.recordedAt.get(tokenId);
    if (last !== undefined && now - last < this.settings.intervalMs) return;
    // Re-inserted so the map's order is the order of writes: the first key is the oldest.
    this.recordedAt.delete(tokenId);
    this.recordedAt.set(tokenId, now);
    if (this.recordedAt.size > this.settings.maxTracked) {
      this.recordedAt.delete(this.recordedAt.keys().next().value!);
    }
    const write: Promise<void> = this.store
      .touchToken(tokenId, new Date(now), new Date(now - this.settings.intervalMs))
      .catch((error: unknown) => {
        // Tried again on the next use rather than an interval later.
        if (this.recordedAt.get(tokenId) === now) this.recordedAt.delete(tokenId);
        try {
          this.settings.onError(error, origin);
        } catch {
          // A failing report must not become an unhandled rejection: the request is long answered.
        }
      })
      .finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }

  /** Resolves once the writes started so far are done (shutdown waits for them). */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }
}

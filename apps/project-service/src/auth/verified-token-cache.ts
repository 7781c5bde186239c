import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Caller } from '../domain/caller';

/** A token that verified: who it names, and when it stops being valid (its `exp`, if it has one). */
export interface VerifiedToken {
  caller: Caller;
  /** Milliseconds since the epoch; undefined for a token without `exp`. */
  expiresAt: number | undefined;
}

export interface VerifiedTokenCacheOptions {
  /** Tokens remembered at most; the least recently used is forgotten first. */
  maxEntries: number;
  /** How long a verified token is believed without checking it again, at most (key rotation, JWKS changes). */
  maxAgeMs: number;
  now?: () => number;
}

const defaultVerifiedTokenCache: VerifiedTokenCacheOptions = { maxEntries: 10_000, maxAgeMs: 60_000 };

/**
 * Verifying a signature and parsing the claims on every request cost more CPU than the rest of a
 * GET. A caller sends the same token for its whole life, so a token that verified is remembered
 * (keyed by its SHA-256, so the memory per entry is small and bounded whatever the token's size)
 * until the earlier of its `exp` and maxAgeMs. Only successes are remembered: a token that fails
 * is checked again each time (its failure costs the caller, not a cache slot), and a forged token
 * is a different key from the genuine one it imitates.
 */
export function cachedVerification(
  verify: (token: string) => Promise<VerifiedToken>,
  options: VerifiedTokenCacheOptions = defaultVerifiedTokenCache,
): (token: string) => Promise<Caller> {
  const now = options.now ?? Date.now;
  const verified = new LRUCache<string, { caller: Caller; until: number }>({ max: options.maxEntries });

  return async (token) => {
    const key = createHash('sha256').update(token).digest('base64');
    const hit = verified.get(key);
    if (hit && now() < hit.until) return hit.caller;
    if (hit) verified.delete(key);
    const { caller, expiresAt } = await verify(token);
    const until = Math.min(now() + options.maxAgeMs, expiresAt ?? Infinity);
    if (until > now()) verified.set(key, { caller, until });
    return caller;
  };
}

import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';

/**
 * Signing keys from a JWKS URL, cached by key id. A token with an unknown kid
 * triggers at most one refetch per `minRefetchIntervalMs` (key rotation without
 * letting garbage tokens hammer the issuer).
 *
 * Written here instead of using jwks-rsa: jwks-rsa 4 depends on the ESM-only
 * `jose`, which the project's CommonJS runtime under Jest cannot load.
 */
export class JwksKeySource {
  private keys = new Map<string, KeyObject>();
  private fetchedAt = 0;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly options: { cacheMs: number; minRefetchIntervalMs: number; timeoutMs: number } = {
      cacheMs: 10 * 60_000,
      minRefetchIntervalMs: 30_000,
      timeoutMs: 5_000,
    },
  ) {}

  async keyFor(kid: string | undefined): Promise<KeyObject> {
    const now = Date.now();
    const stale = now - this.fetchedAt > this.options.cacheMs;
    const unknown = !this.lookup(kid);
    if (stale || (unknown && now - this.fetchedAt > this.options.minRefetchIntervalMs)) await this.refresh();
    const key = this.lookup(kid);
    if (!key)
      throw new Error(
        kid ? `no signing key with kid ${kid}` : 'token has no kid and the key set has more than one key',
      );
    return key;
  }

  private lookup(kid: string | undefined): KeyObject | undefined {
    if (kid !== undefined) return this.keys.get(kid);
    // Without a kid, only an unambiguous single-key set will do.
    return this.keys.size === 1 ? [...this.keys.values()][0] : undefined;
  }

  private refresh(): Promise<void> {
    this.inFlight ??= this.fetchKeys().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchKeys(): Promise<void> {
    const response = await fetch(this.url, { signal: AbortSignal.timeout(this.options.timeoutMs) });
    if (!response.ok) throw new Error(`JWKS endpoint answered ${response.status}`);
    const body = (await response.json()) as { keys?: unknown };
    const keys = new Map<string, KeyObject>();
    for (const jwk of Array.isArray(body.keys)
      ? (body.keys as (JsonWebKey & { kid?: string; use?: string })[])
      : []) {
      if (jwk.use !== undefined && jwk.use !== 'sig') continue;
      if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') continue;
      try {
        keys.set(jwk.kid ?? '', createPublicKey({ key: jwk, format: 'jwk' }));
      } catch {
        // A malformed key is skipped; tokens naming it fail verification.
      }
    }
    this.keys = keys;
    this.fetchedAt = Date.now();
  }
}

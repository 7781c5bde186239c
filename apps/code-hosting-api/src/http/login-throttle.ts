import type { Request } from 'express';

// The failed-login backoff's rules live in src/domain/login-throttle.ts and its state in the
// database (src/db/login-throttle-store.ts), shared by every replica; this is what HTTP adds.
export { defaultLoginThrottleSettings, type LoginThrottleSettings } from '../domain/login-throttle';

/**
 * The address a password login counts against: the client's, read through the proxies TRUST_PROXY
 * names (Express's req.ip). The throttle cuts it to a bounded key: with a trusted proxy it is
 * whatever X-Forwarded-For says.
 */
export function loginAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

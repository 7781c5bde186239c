import { createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import { unauthorized } from '@repo/http-errors';
import jwt, { type Algorithm, type JwtPayload } from 'jsonwebtoken';
import type { Caller } from '../domain/caller';
import type { AuthConfig } from './auth-config';
import jwksClient from 'jwks-rsa';
import { cachedVerification, type VerifiedToken } from './verified-token-cache';

const RSA_ALGORITHMS: Algorithm[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
const EC_ALGORITHMS: Algorithm[] = ['ES256', 'ES384', 'ES512'];

export type TokenVerifier = (token: string) => Promise<Caller>;

/**
 * How far the issuer's clock may run ahead of the service's: a token issued (`iat`) later than
 * now plus this is refused. `exp` and `nbf` are checked against the service's clock as they are.
 */
const ISSUED_AT_SKEW_SECONDS = 60;

/** The algorithms a public key can verify: pinned, so an HS256 token signed with the public key text is refused. */
function algorithmsFor(key: KeyObject): Algorithm[] {
  return key.asymmetricKeyType === 'ec' ? EC_ALGORITHMS : RSA_ALGORITHMS;
}

function verify(
  token: string,
  key: jwt.Secret | jwt.GetPublicKeyOrSecret,
  options: jwt.VerifyOptions,
): Promise<JwtPayload> {
  return new Promise((resolve, reject) => {
    jwt.verify(token, key, { ...options, complete: false }, (error, payload) => {
      if (error) reject(error);
      else if (typeof payload !== 'object' || payload === null)
        reject(new Error('token payload is not a JSON object'));
      else resolve(payload);
    });
  });
}

function invalidToken(reason: string) {
  return unauthorized(`invalid token: ${reason}`, {
    headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
  });
}

/**
 * The time claims jsonwebtoken leaves alone: whether `exp` must be there, and `iat`, which it
 * checks only against a maximum age (it refuses a non-numeric or passed `exp` and a future `nbf`).
 */
function timeClaimsProblem(claims: JwtPayload, requireExp: boolean): string | undefined {
  if (requireExp && claims.exp === undefined) return 'no exp claim';
  // Typed a number, but the token's JSON may hold anything.
  const issuedAt: unknown = claims.iat;
  if (issuedAt === undefined) return undefined;
  if (typeof issuedAt !== 'number') return 'invalid iat value';
  if (issuedAt > Date.now() / 1000 + ISSUED_AT_SKEW_SECONDS) return 'iat is in the future';
  return undefined;
}

function stringsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(/[\s,]+/).filter(Boolean);
  return Array.isArray(claim) ? claim.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * Builds the verifier once: keys parsed and the JWKS client (with its cache) created at start-up;
 * a token that verified is believed until its `exp` (at most a minute): verified-token-cache.ts.
 */
export function createTokenVerifier(config: AuthConfig): TokenVerifier {
  return cachedVerification(createUncachedVerifier(config));
}

function createUncachedVerifier(config: AuthConfig): (token: string) => Promise<VerifiedToken> {
  const baseOptions: jwt.VerifyOptions = {
    ...(config.issuer ? { issuer: config.issuer } : {}),
    ...(config.audience ? { audience: config.audience } : {}),
  };
  let key: jwt.Secret | jwt.GetPublicKeyOrSecret;
  let algorithms: Algorithm[];
  switch (config.key.kind) {
    case 'secret':
      // A KeyObject made once: given the string, jsonwebtoken builds a key object on every verify.
      key = createSecretKey(Buffer.from(config.key.secret, 'utf8'));
      algorithms = ['HS256'];
      break;
    case 'public-key': {
      const publicKey = createPublicKey(config.key.publicKeyPem);
      key = publicKey;
      algorithms = algorithmsFor(publicKey);
      break;
    }
    case 'jwks': {
      // Cached by kid; an unknown kid refetches (key rotation), rate-limited so
      // garbage tokens cannot make us hammer the issuer.
      const keySource = jwksClient({
        jwksUri: config.key.url,
        cache: true,
        cacheMaxAge: 10 * 60_000,
        rateLimit: true,
        jwksRequestsPerMinute: 10,
        timeout: 5_000,
      });
      key = (header, callback) => {
        keySource.getSigningKey(header.kid).then(
          (signingKey) => callback(null, signingKey.getPublicKey()),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      };
      algorithms = [...RSA_ALGORITHMS, ...EC_ALGORITHMS];
      break;
    }
  }
  const adminPrincipals = new Set(config.adminPrincipals);
  const requireExp = config.requireExp ?? true;

  return async (token) => {
    let claims: JwtPayload;
    try {
      claims = await verify(token, key, { ...baseOptions, algorithms });
    } catch (error) {
      // jsonwebtoken's messages ("jwt expired", "invalid signature") describe the token, never the key.
      throw invalidToken(error instanceof Error ? error.message : 'invalid token');
    }
    const timeProblem = timeClaimsProblem(claims, requireExp);
    if (timeProblem) throw invalidToken(timeProblem);
    const principal =
      typeof claims['principal'] === 'string' && claims['principal'] !== ''
        ? claims['principal']
        : claims.sub;
    if (typeof principal !== 'string' || principal === '') throw invalidToken('no principal or sub claim');
    const groups = [...stringsOf(claims['groups']), ...stringsOf(claims['roles'])];
    const isAdmin =
      adminPrincipals.has(principal) ||
      (config.adminGroup !== undefined && groups.includes(config.adminGroup));
    return {
      caller: { principal, isAdmin },
      expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : undefined,
    };
  };
}

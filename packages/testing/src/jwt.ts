import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';

export type TestSigningKey =
  | { algorithm: 'HS256'; secret: string }
  | { algorithm: 'RS256' | 'ES256'; privateKey: string; keyId?: string };

/** Signs a token the way the authorization gateway would. */
export function signTestToken(
  claims: Record<string, unknown>,
  key: TestSigningKey,
  options: jwt.SignOptions = {},
): string {
  const secret = key.algorithm === 'HS256' ? key.secret : key.privateKey;
  const keyid = key.algorithm === 'HS256' ? undefined : key.keyId;
  return jwt.sign(claims, secret, {
    algorithm: key.algorithm,
    expiresIn: '5m',
    ...(keyid ? { keyid } : {}),
    ...options,
  });
}

/** A fresh RSA key pair in PEM, for tests of public-key verification. */
export function generateRsaKeyPair(): { publicKey: string; privateKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

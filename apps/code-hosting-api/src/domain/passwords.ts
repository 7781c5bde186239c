import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const keyLength = 32;
const saltLength = 16;
const blockSize = 8;
const parallelism = 1;

function derive(password: string, salt: Buffer, cost: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must cover 128·N·r bytes, which passes Node's 32 MiB default at N = 2^15.
    scrypt(
      password,
      salt,
      keyLength,
      { N: cost, r, p, maxmem: 256 * cost * r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash, so the cost can change later. */
function formatHash(cost: number, salt: Buffer, key: Buffer): string {
  return ['scrypt', cost, blockSize, parallelism, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(saltLength);
  return formatHash(cost, salt, await derive(password, salt, cost, blockSize, parallelism));
}

/**
 * A hash of the shape hashPassword gives at that cost, for an account that has none (no such
 * account): checking a password against it costs what a real check costs, since scrypt's work
 * depends only on the parameters. Its key is random bytes, the hash of no known password; callers
 * refuse regardless of the outcome.
 */
export function standInHash(cost: number): string {
  return formatHash(cost, randomBytes(saltLength), randomBytes(keyLength));
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(cost), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

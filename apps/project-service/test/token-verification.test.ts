import { execFile } from 'node:child_process';
import { createHmac, createPublicKey, generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateRsaKeyPair, signTestToken } from '@repo/testing';
import supertest from 'supertest';
import type { AuthConfig } from '../src/auth/auth-config';
import { mintToken } from '../src/auth/development-token';
import { createTokenVerifier } from '../src/auth/token-verifier';
import { ConfigError, loadConfig } from '../src/config';
import { createTestApp, TEST_JWT_SECRET, testAuthConfig, useProjectService } from './app';

const service = useProjectService();

/** The real app over this file's database, verifying tokens with another configuration. */
async function appWith(auth: AuthConfig) {
  const instance = await createTestApp(service.database, auth);
  return { request: supertest(instance.app), close: instance.close };
}

const adminOnly = { adminPrincipals: ['boss'] };

describe('tokens verified with a PEM public key (JWT_PUBLIC_KEY)', () => {
  const rsa = generateRsaKeyPair();

  it('accepts an RS256 token signed with the matching private key', async () => {
    const app = await appWith({ key: { kind: 'public-key', publicKeyPem: rsa.publicKey }, ...adminOnly });
    try {
      const token = signTestToken({ principal: 'boss' }, { algorithm: 'RS256', privateKey: rsa.privateKey });
      await app.request.get('/projects').set('Authorization', `Bearer ${token}`).expect(200);
    } finally {
      await app.close();
    }
  });

  it('refuses an HS256 token that uses the public key text as its secret (algorithm confusion)', async () => {
    const app = await appWith({ key: { kind: 'public-key', publicKeyPem: rsa.publicKey }, ...adminOnly });
    try {
      const forged = signTestToken({ principal: 'boss' }, { algorithm: 'HS256', secret: rsa.publicKey });
      await app.request.get('/projects').set('Authorization', `Bearer ${forged}`).expect(401);
    } finally {
      await app.close();
    }
  });

  it('accepts an ES256 token with an EC public key', async () => {
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const app = await appWith({ key: { kind: 'public-key', publicKeyPem: ec.publicKey }, ...adminOnly });
    try {
      const token = signTestToken({ principal: 'boss' }, { algorithm: 'ES256', privateKey: ec.privateKey });
      await app.request.get('/projects').set('Authorization', `Bearer ${token}`).expect(200);
    } finally {
      await app.close();
    }
  });
});

describe('tokens verified with keys from a JWKS URL', () => {
  const rsa = generateRsaKeyPair();
  let jwksServer: http.Server;
  let jwksUrl: string;
  let fetches = 0;

  beforeAll(async () => {
    const jwk = {
      ...createPublicKey(rsa.publicKey).export({ format: 'jwk' }),
      kid: 'key-1',
      use: 'sig',
      alg: 'RS256',
    };
    jwksServer = http.createServer((_req, res) => {
      fetches += 1;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())));

  it('accepts a token whose kid is in the key set, and caches the key set', async () => {
    const app = await appWith({ key: { kind: 'jwks', url: jwksUrl }, ...adminOnly });
    try {
      const token = signTestToken(
        { principal: 'boss' },
        { algorithm: 'RS256', privateKey: rsa.privateKey, keyId: 'key-1' },
      );
      const before = fetches;
      await app.request.get('/projects').set('Authorization', `Bearer ${token}`).expect(200);
      await app.request.get('/projects').set('Authorization', `Bearer ${token}`).expect(200);
      expect(fetches - before).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('refuses a token whose kid is not in the key set', async () => {
    const app = await appWith({ key: { kind: 'jwks', url: jwksUrl }, ...adminOnly });
    try {
      const token = signTestToken(
        { principal: 'boss' },
        { algorithm: 'RS256', privateKey: rsa.privateKey, keyId: 'other' },
      );
      await app.request.get('/projects').set('Authorization', `Bearer ${token}`).expect(401);
    } finally {
      await app.close();
    }
  });
});

describe('issuer and audience', () => {
  const secret = 'issuer-audience-test-secret-0123456789';
  const auth: AuthConfig = {
    key: { kind: 'secret', secret },
    issuer: 'https://auth.example.com/',
    audience: 'project-service',
    ...adminOnly,
  };

  it.each([
    ['the right issuer and audience', { iss: 'https://auth.example.com/', aud: 'project-service' }, 200],
    ['no issuer', { aud: 'project-service' }, 401],
    ['another issuer', { iss: 'https://evil.example.com/', aud: 'project-service' }, 401],
    ['another audience', { iss: 'https://auth.example.com/', aud: 'someone-else' }, 401],
  ])('with %s (%j) answers %i', async (_label, claims, status) => {
    const app = await appWith(auth);
    try {
      const token = signTestToken({ principal: 'boss', ...claims }, { algorithm: 'HS256', secret });
      await app.request.get('/projects').set('Authorization', `Bearer ${token}`).expect(status);
    } finally {
      await app.close();
    }
  });
});

describe('the time claims', () => {
  const now = () => Math.floor(Date.now() / 1000);
  /**
   * HS256 with the test secret over exactly this payload: jsonwebtoken's sign adds iat and refuses
   * claims of the wrong type, which these tests need. A string is the payload's JSON text as is.
   */
  const signedAs = (claims: Record<string, unknown> | string) => {
    const payload = typeof claims === 'string' ? claims : JSON.stringify({ principal: 'timed', ...claims });
    const signingInput = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(payload).toString('base64url')}`;
    const signature = createHmac('sha256', TEST_JWT_SECRET).update(signingInput).digest('base64url');
    return `Bearer ${signingInput}.${signature}`;
  };
  const answer = async (authorization: string) => {
    const response = await service.request.get('/projects').set('Authorization', authorization);
    return response.status === 200
      ? { status: 200 }
      : {
          status: response.status,
          body: response.body as unknown,
          challenge: response.headers['www-authenticate'],
        };
  };
  const refused = (message: string) => ({
    status: 401,
    body: { code: '401', message },
    challenge: 'Bearer error="invalid_token"',
  });

  it('refuses a token without exp: a leaked one would never expire', async () => {
    expect(await answer(signedAs({}))).toEqual(refused('invalid token: no exp claim'));
    expect(await answer(signedAs({ iat: now() }))).toEqual(refused('invalid token: no exp claim'));
    // Refused whenever it is sent, not only the first time.
    expect(await answer(signedAs({}))).toEqual(refused('invalid token: no exp claim'));
    expect(await answer(signedAs({ exp: now() + 60 }))).toEqual({ status: 200 });
  });

  it('accepts a token without exp when JWT_REQUIRE_EXP is false (a gateway that mints none)', async () => {
    const app = await appWith({ ...testAuthConfig, requireExp: false });
    try {
      await app.request.get('/projects').set('Authorization', signedAs({})).expect(200);
      // The rest still holds.
      await app.request
        .get('/projects')
        .set('Authorization', signedAs({ iat: now() + 3600 }))
        .expect(401);
      await app.request
        .get('/projects')
        .set('Authorization', signedAs({ exp: now() - 10 }))
        .expect(401);
    } finally {
      await app.close();
    }
  });

  it('refuses a token issued (iat) later than the allowed clock skew of 60 s', async () => {
    expect(await answer(signedAs({ iat: now() + 3600, exp: now() + 7200 }))).toEqual(
      refused('invalid token: iat is in the future'),
    );
    expect(await answer(signedAs({ iat: now() + 120, exp: now() + 600 }))).toEqual(
      refused('invalid token: iat is in the future'),
    );
    // Within the skew: an issuer whose clock runs a little ahead.
    expect(await answer(signedAs({ iat: now() + 20, exp: now() + 600 }))).toEqual({ status: 200 });
    expect(await answer(signedAs({ iat: now() - 3600, exp: now() + 600 }))).toEqual({ status: 200 });
  });

  it('refuses an iat that is not a number of seconds', async () => {
    for (const iat of ['yesterday', String(now()), null, [now()]]) {
      expect({ iat, answer: await answer(signedAs({ iat, exp: now() + 600 })) }).toEqual({
        iat,
        answer: refused('invalid token: invalid iat value'),
      });
    }
  });

  it('accepts an exp far in the future (1e20) as any other, on every request', async () => {
    const far = signedAs({ exp: 1e20, iat: now() });
    expect(await answer(far)).toEqual({ status: 200 });
    // The second request is answered from the verified tokens remembered.
    expect(await answer(far)).toEqual({ status: 200 });
    expect(await answer(signedAs({ exp: Number.MAX_VALUE }))).toEqual({ status: 200 });
    // JSON's 1e400 is Infinity to JavaScript.
    expect(await answer(signedAs('{"principal":"timed","exp":1e400}'))).toEqual({ status: 200 });
  });

  it('refuses an exp that is not a number, and one that has passed', async () => {
    expect(await answer(signedAs({ exp: 'never' }))).toEqual(refused('invalid token: invalid exp value'));
    expect(await answer(signedAs({ exp: now() - 1 }))).toEqual(refused('invalid token: jwt expired'));
  });
});

describe('configuration', () => {
  it('refuses to start in production without a key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWKS_URL, JWT_PUBLIC_KEY or JWT_SECRET/);
  });

  it('generates a development secret and lists the development admin when no key is set outside production', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    expect(config.developmentSecret).toEqual(expect.any(String));
    expect(config.auth.key).toEqual({ kind: 'secret', secret: config.developmentSecret });
    expect(config.auth.adminPrincipals).toContain('dev-admin');
  });

  it('does not generate a secret when one is configured', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'a-configured-secret-of-length',
      ADMIN_PRINCIPALS: 'ann, bob',
    });
    expect(config.developmentSecret).toBeUndefined();
    expect(config.auth.adminPrincipals).toEqual(['ann', 'bob']);
  });

  it('requires exp unless JWT_REQUIRE_EXP is false', () => {
    const secret = { JWT_SECRET: 'a-configured-secret-of-length' };
    expect(loadConfig(secret).auth.requireExp).toBe(true);
    expect(loadConfig({ ...secret, JWT_REQUIRE_EXP: 'true' }).auth.requireExp).toBe(true);
    expect(loadConfig({ ...secret, JWT_REQUIRE_EXP: 'false' }).auth.requireExp).toBe(false);
    expect(() => loadConfig({ ...secret, JWT_REQUIRE_EXP: 'sometimes' })).toThrow(/JWT_REQUIRE_EXP/);
  });

  it('refuses two key sources at once', () => {
    expect(() =>
      loadConfig({ JWT_SECRET: 'a-configured-secret-of-length', JWKS_URL: 'https://example.com/jwks' }),
    ).toThrow(/only one of/);
  });

  it('mints tokens (the token command) that the service verifies, admin through the admin group', async () => {
    const secret = 'minted-token-secret-0123456789';
    const verify = createTokenVerifier({
      key: { kind: 'secret', secret },
      adminPrincipals: [],
      adminGroup: 'project-admins',
    });
    await expect(verify(mintToken(secret, { principal: 'alice' }))).resolves.toEqual({
      principal: 'alice',
      isAdmin: false,
    });
    await expect(
      verify(mintToken(secret, { principal: 'root-user', groups: ['project-admins'] })),
    ).resolves.toEqual({
      principal: 'root-user',
      isAdmin: true,
    });
  });

  it('mints a token from the command line with JWT_SECRET (pnpm run token)', async () => {
    const secret = 'command-line-secret-0123456789';
    const { stdout } = await promisify(execFile)(
      path.join(__dirname, '..', 'node_modules', '.bin', 'tsx'),
      [path.join(__dirname, '..', 'src', 'token-command.ts'), '--principal', 'carol', '--admin'],
      { env: { ...process.env, JWT_SECRET: secret, ADMIN_GROUP: 'the-admins', NODE_OPTIONS: '' } },
    );
    const verify = createTokenVerifier({
      key: { kind: 'secret', secret },
      adminPrincipals: [],
      adminGroup: 'the-admins',
    });
    await expect(verify(stdout.trim())).resolves.toEqual({ principal: 'carol', isAdmin: true });
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { mintToken } from '../src/auth/development-token';
import { cachedVerification, type VerifiedToken } from '../src/auth/verified-token-cache';
import { TEST_JWT_SECRET, useProjectService } from './app';

// A verified token is remembered until its exp (at most a minute): these check that being
// remembered never lets a token through that verification would refuse.

const service = useProjectService();

describe('remembered tokens, through HTTP', () => {
  it('refuses a token once its exp has passed, though it was accepted (and remembered) before', async () => {
    // A first request warms the service up; the token then lives 3 to 4 s, long enough for two
    // requests on a loaded machine.
    await service.request
      .get('/projects')
      .set('Authorization', `Bearer ${mintToken(TEST_JWT_SECRET, { principal: 'warm-up' })}`)
      .expect(200);
    const exp = Math.floor(Date.now() / 1000) + 4;
    const token = mintToken(
      TEST_JWT_SECRET,
      { principal: 'short-lived' },
      exp - Math.floor(Date.now() / 1000),
    );
    await service.request.get('/projects').set('Authorization', `Bearer ${token}`).expect(200);
    await service.request.get('/projects').set('Authorization', `Bearer ${token}`).expect(200);
    await sleep(exp * 1000 - Date.now() + 50);
    const response = await service.request.get('/projects').set('Authorization', `Bearer ${token}`);
    expect({ status: response.status, message: response.body.message }).toEqual({
      status: 401,
      message: 'invalid token: jwt expired',
    });
  });

  it('refuses a token whose signature was tampered with, before and after the genuine one was accepted', async () => {
    const token = mintToken(TEST_JWT_SECRET, { principal: 'genuine' });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    const forged = `${header}.${payload}.${flipped}`;
    await service.request.get('/projects').set('Authorization', `Bearer ${forged}`).expect(401);
    await service.request.get('/projects').set('Authorization', `Bearer ${token}`).expect(200);
    await service.request.get('/projects').set('Authorization', `Bearer ${forged}`).expect(401);
    // The same claims signed with another secret.
    const other = mintToken('another-secret-0123456789-abcdef', { principal: 'genuine' });
    await service.request.get('/projects').set('Authorization', `Bearer ${other}`).expect(401);
  });
});

describe('the cache of verified tokens', () => {
  let clock = 0;
  let verifications: string[] = [];
  const verifier = (result: (token: string) => VerifiedToken | Error) =>
    cachedVerification(
      async (token) => {
        verifications.push(token);
        const outcome = result(token);
        if (outcome instanceof Error) throw outcome;
        return outcome;
      },
      { maxEntries: 2, maxAgeMs: 1_000, now: () => clock },
    );
  const caller = (principal: string) => ({ principal, isAdmin: false });
  beforeEach(() => {
    clock = 1_000_000;
    verifications = [];
  });

  it('verifies a token once while it is remembered, again after the maximum age', async () => {
    const verify = verifier((token) => ({ caller: caller(token), expiresAt: undefined }));
    expect(await verify('a')).toEqual(caller('a'));
    clock += 999;
    expect(await verify('a')).toEqual(caller('a'));
    expect(verifications).toEqual(['a']);
    clock += 1;
    await verify('a');
    expect(verifications).toEqual(['a', 'a']);
  });

  it('forgets a token at its exp when that comes before the maximum age, and never remembers an expired one', async () => {
    const verify = verifier((token) => ({
      caller: caller(token),
      expiresAt: clock + (token === 'soon' ? 10 : 0),
    }));
    await verify('soon');
    clock += 9;
    await verify('soon');
    clock += 1;
    await verify('soon');
    await verify('now');
    await verify('now');
    expect(verifications).toEqual(['soon', 'soon', 'now', 'now']);
  });

  it('remembers no failure: a refused token is verified (and refused) every time', async () => {
    const verify = verifier(() => new Error('invalid signature'));
    await expect(verify('bad')).rejects.toThrow('invalid signature');
    await expect(verify('bad')).rejects.toThrow('invalid signature');
    expect(verifications).toEqual(['bad', 'bad']);
  });

  it('holds at most maxEntries tokens, forgetting the least recently used', async () => {
    const verify = verifier((token) => ({ caller: caller(token), expiresAt: undefined }));
    await verify('a');
    await verify('b');
    await verify('a');
    await verify('c');
    await verify('a');
    await verify('b');
    expect(verifications).toEqual(['a', 'b', 'c', 'b']);
  });
});

import { querySource } from '@repo/testing';
import { loadConfig } from '../src/config';
import { loginKeys } from '../src/domain/login-throttle';
import { defaultLoginThrottleSettings } from '../src/http/login-throttle';
import { useCodeHostingApi } from './app';
import { api, auth, basic, createUser, uniqueName, type Actor } from './actors';
import { errorBody } from './organization-fixtures';

// Small limits so each rule shows in a few requests. The addresses come from X-Forwarded-For
// (TRUST_PROXY=loopback: the test client is the proxy), as behind the deployment's gateway.
// A refusal lasts 30 s at least, so no case sees one end while it runs, however slow the machine;
// the case that needs a refusal to end ends it in the database (endRefusals).
const service = useCodeHostingApi({
  trustProxy: 'loopback',
  loginThrottle: {
    // Longer than the longest refusal: one that really ran out would leave its counter as it is.
    windowSeconds: 300,
    pairFailures: 3,
    addressFailures: 8,
    accountFailures: 10,
    baseDelaySeconds: 30,
    maxDelaySeconds: 100,
    maxEntries: 1000,
    // Held attempts wait for those in flight far longer than any slow machine takes to settle them.
    inFlightWaitMs: 30_000,
  },
});

let addressCounter = 0;
/** A fresh client address (TEST-NET-3). */
function newAddress(): string {
  addressCounter += 1;
  return `203.0.113.${addressCounter}`;
}

function login(username: string, password: string, address: string) {
  return service.request
    .get(`${api}/user`)
    .set('Authorization', basic(username, password))
    .set('X-Forwarded-For', address);
}

async function failTimes(times: number, username: string, address: string): Promise<void> {
  for (let i = 0; i < times; i += 1) await login(username, 'wrong-password', address).expect(401);
}

/** Ends the refusals of the account's pair and of the address now, as the passing of their time would. */
async function endRefusals(username: string, address: string): Promise<void> {
  const keys = loginKeys(username, address);
  await querySource(
    service.database,
    `UPDATE login_failures SET blocked_until = now()
     WHERE (kind, key) IN (('address', $1), ('pair', $2)) AND blocked_until > now()`,
    [keys.address, keys.pair],
  );
}

/**
 * The refusal's Retry-After is counted from the failure that began it: a loaded machine may take a
 * few seconds to the request that reads it, so a few seconds less than `seconds` are accepted.
 */
function expectRetryAfter(response: { headers: Record<string, string> }, seconds: number): void {
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeLessThanOrEqual(seconds);
  expect(retryAfter).toBeGreaterThan(seconds - 5);
}

describe('failed password logins back off (per account, per address)', () => {
  let alice: Actor;
  beforeEach(async () => {
    alice = await createUser(service, 'alice');
  });

  it('past the pair limit, that address gets 429 with Retry-After, even with the right password', async () => {
    const attacker = newAddress();
    await failTimes(3, alice.username, attacker);
    const refused = await login(alice.username, alice.password, attacker).expect(429);
    expect(refused.body).toEqual(errorBody(/too many failed login attempts/));
    expectRetryAfter(refused, 30);
  });

  it('the right password from another address still works meanwhile', async () => {
    await failTimes(3, alice.username, newAddress());
    const response = await login(alice.username, alice.password, newAddress()).expect(200);
    expect(response.body.login).toBe(alice.username);
  });

  it('tokens are not throttled: the account stays usable through them', async () => {
    const attacker = newAddress();
    await failTimes(3, alice.username, attacker);
    await service.request
      .get(`${api}/user`)
      .set(...auth(alice.token))
      .set('X-Forwarded-For', attacker)
      .expect(200);
  });

  it('the refusal doubles with each failure past the limit, up to the maximum', async () => {
    const attacker = newAddress();
    await failTimes(3, alice.username, attacker);
    expectRetryAfter(await login(alice.username, 'x', attacker).expect(429), 30);
    await endRefusals(alice.username, attacker);
    await failTimes(1, alice.username, attacker);
    expectRetryAfter(await login(alice.username, 'x', attacker).expect(429), 60);
    await endRefusals(alice.username, attacker);
    await failTimes(1, alice.username, attacker);
    expectRetryAfter(await login(alice.username, 'x', attacker).expect(429), 100);
  });

  it('a successful login from an address starts that address over', async () => {
    const address = newAddress();
    await failTimes(2, alice.username, address);
    await login(alice.username, alice.password, address).expect(200);
    await failTimes(2, alice.username, address);
    await login(alice.username, alice.password, address).expect(200);
  });

  it('an address spraying many accounts is refused for every account, others are not', async () => {
    const sprayer = newAddress();
    for (let i = 0; i < 8; i += 1) await failTimes(1, uniqueName('guess'), sprayer);
    await login(uniqueName('guess'), 'x', sprayer).expect(429);
    await login(alice.username, alice.password, sprayer).expect(429);
    await login(alice.username, alice.password, newAddress()).expect(200);
  });

  it('unknown accounts are throttled like real ones (no way to tell them apart)', async () => {
    const attacker = newAddress();
    await failTimes(3, 'no-such-user', attacker);
    await login('no-such-user', 'x', attacker).expect(429);
  });

  it('guessing spread over many addresses hits the account limit; addresses that logged in before still work', async () => {
    const home = newAddress();
    await login(alice.username, alice.password, home).expect(200);
    // 10 failures from 5 addresses, each under the pair limit.
    for (let i = 0; i < 5; i += 1) await failTimes(2, alice.username, newAddress());
    await login(alice.username, alice.password, newAddress()).expect(429);
    await login(alice.username, alice.password, home).expect(200);
  });

  it('parallel guesses cannot outrun the count: at most the pair limit are checked', async () => {
    const attacker = newAddress();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => login(alice.username, 'wrong-password', attacker)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(17);
  });

  it('an address that never logged in may send many Basic-auth requests at once with the right password', async () => {
    // The attempts past the pair limit wait for those in flight: the first success trusts the pair.
    const address = newAddress();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => login(alice.username, alice.password, address)),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
  });

  it('an address that logged in before may send many Basic-auth requests at once', async () => {
    const address = newAddress();
    await login(alice.username, alice.password, address).expect(200);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => login(alice.username, alice.password, address)),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
  });

  it('an address that logged in before still meets the pair limit when it guesses', async () => {
    const address = newAddress();
    await login(alice.username, alice.password, address).expect(200);
    await failTimes(3, alice.username, address);
    await login(alice.username, alice.password, address).expect(429);
  });

  it('token creation (Basic only) is throttled the same way', async () => {
    const attacker = newAddress();
    for (let i = 0; i < 3; i += 1) {
      await service.request
        .post(`${api}/users/${alice.username}/tokens`)
        .set('Authorization', basic(alice.username, 'wrong'))
        .set('X-Forwarded-For', attacker)
        .send({ name: uniqueName('t'), scopes: ['all'] })
        .expect(401);
    }
    await service.request
      .post(`${api}/users/${alice.username}/tokens`)
      .set('Authorization', basic(alice.username, alice.password))
      .set('X-Forwarded-For', attacker)
      .send({ name: uniqueName('t'), scopes: ['all'] })
      .expect(429);
  });
});

describe('login throttle configuration', () => {
  it('reads LOGIN_THROTTLE_* and TRUST_PROXY from the environment', () => {
    const config = loadConfig({
      LOGIN_THROTTLE_WINDOW: '600',
      LOGIN_THROTTLE_PAIR_FAILURES: '7',
      LOGIN_THROTTLE_ADDRESS_FAILURES: '0',
      LOGIN_THROTTLE_ACCOUNT_FAILURES: '500',
      LOGIN_THROTTLE_BASE_DELAY: '0.5',
      LOGIN_THROTTLE_MAX_DELAY: '60',
      LOGIN_THROTTLE_MAX_ENTRIES: '100',
      TRUST_PROXY: '1',
    });
    expect(config.settings.loginThrottle).toEqual({
      windowSeconds: 600,
      pairFailures: 7,
      addressFailures: 0,
      accountFailures: 500,
      baseDelaySeconds: 0.5,
      maxDelaySeconds: 60,
      maxEntries: 100,
    });
    expect(config.settings.trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).settings.trustProxy).toBe(
      'loopback, 10.0.0.0/8',
    );
    expect(loadConfig({}).settings).toMatchObject({
      loginThrottle: defaultLoginThrottleSettings,
      trustProxy: false,
    });
    expect(() => loadConfig({ LOGIN_THROTTLE_PAIR_FAILURES: '-1' })).toThrow(/LOGIN_THROTTLE_PAIR_FAILURES/);
  });
});

import http from 'node:http';
import path from 'node:path';
import {
  createTestDatabase,
  httpRequest,
  startReplicaSet,
  type HttpOutcome,
  type ReplicaSet,
  type TestDatabase,
} from '@repo/testing';
import { processAdmin, processAdminAuthorization } from '../service-process';

// The failed-login backoff (src/domain/login-throttle.ts) as two replicas of the built service on
// one PostgreSQL database see it: the requests go to each replica directly, in turn, so nothing but
// the database can tell one replica what the other counted. The limits are the environment's.

const PAIR_FAILURES = 4;
const ACCOUNT_FAILURES = 6;

let database: TestDatabase;
let set: ReplicaSet;
const agent = new http.Agent({ keepAlive: true });

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.source.kind !== 'postgres') throw new Error('replica tests need DATABASE_URL');
  set = await startReplicaSet({
    appDir: path.resolve(__dirname, '../..'),
    count: 2,
    env: {
      DATABASE_URL: database.source.url,
      ADMIN_USERNAME: processAdmin.username,
      ADMIN_PASSWORD: processAdmin.password,
      PASSWORD_HASH_COST: '16',
      // The test client is the proxy: the client addresses come from X-Forwarded-For.
      TRUST_PROXY: 'loopback',
      LOGIN_THROTTLE_WINDOW: '60',
      LOGIN_THROTTLE_PAIR_FAILURES: String(PAIR_FAILURES),
      LOGIN_THROTTLE_ADDRESS_FAILURES: '30',
      LOGIN_THROTTLE_ACCOUNT_FAILURES: String(ACCOUNT_FAILURES),
      LOGIN_THROTTLE_BASE_DELAY: '30',
      LOGIN_THROTTLE_MAX_DELAY: '60',
    },
  });
}, 120_000);

afterAll(async () => {
  agent.destroy();
  await set?.stop();
  await database?.drop();
});

let counter = 0;
/** A fresh client address (TEST-NET-2). */
function newAddress(): string {
  counter += 1;
  return `198.51.100.${counter}`;
}

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** GET /user with a password from `address`, sent to replica `replica` itself (not through the proxy). */
function login(replica: number, username: string, password: string, address: string): Promise<HttpOutcome> {
  return httpRequest(set.replicas[replica]!.baseUrl, agent, 'GET', '/api/v1/user', {
    headers: { Authorization: basic(username, password), 'X-Forwarded-For': address },
  });
}

async function createUser(name: string): Promise<{ username: string; password: string }> {
  const user = { username: name, password: `${name}-password` };
  const created = await httpRequest(set.replicas[0]!.baseUrl, agent, 'POST', '/api/v1/admin/users', {
    headers: { Authorization: processAdminAuthorization, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: name, email: `${name}@example.com`, password: user.password }),
  });
  expect(created.status).toBe(201);
  return user;
}

describe('failed password logins on two replicas of one database', () => {
  it('the pair limit counts the failures both replicas saw: the 429 comes after the limit summed over both', async () => {
    const alice = await createUser('alice');
    const attacker = newAddress();
    const statuses: (number | undefined)[] = [];
    for (let attempt = 0; attempt < PAIR_FAILURES; attempt += 1) {
      statuses.push((await login(attempt % 2, alice.username, 'wrong-password', attacker)).status);
    }
    // Each replica saw half the failures: alone, neither would refuse yet.
    expect(statuses).toEqual(Array(PAIR_FAILURES).fill(401));
    for (const replica of [0, 1]) {
      const refused = await login(replica, alice.username, alice.password, attacker);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers?.['retry-after'])).toBeGreaterThan(20);
    }
    // Another address is not that pair: the right password works there, on either replica.
    expect((await login(1, alice.username, alice.password, newAddress())).status).toBe(200);
  });

  it('a success on one replica starts the pair over on the other', async () => {
    const bob = await createUser('bob');
    const address = newAddress();
    for (let attempt = 0; attempt < PAIR_FAILURES - 1; attempt += 1) {
      expect((await login(0, bob.username, 'wrong-password', address)).status).toBe(401);
    }
    expect((await login(1, bob.username, bob.password, address)).status).toBe(200);
    for (let attempt = 0; attempt < PAIR_FAILURES - 1; attempt += 1) {
      expect((await login(0, bob.username, 'wrong-password', address)).status).toBe(401);
    }
    expect((await login(0, bob.username, bob.password, address)).status).toBe(200);
  });

  it('an address trusted by a login on one replica is exempt from the account limit on the other', async () => {
    const carol = await createUser('carol');
    const home = newAddress();
    expect((await login(0, carol.username, carol.password, home)).status).toBe(200);
    // The account limit reached on replica 1, two failures per address (under the pair limit).
    for (let attempt = 0; attempt < ACCOUNT_FAILURES; attempt += 2) {
      const address = newAddress();
      expect((await login(1, carol.username, 'wrong-password', address)).status).toBe(401);
      expect((await login(1, carol.username, 'wrong-password', address)).status).toBe(401);
    }
    expect((await login(0, carol.username, carol.password, newAddress())).status).toBe(429);
    expect((await login(1, carol.username, carol.password, home)).status).toBe(200);
  });
});

import crypto from 'node:crypto';
import { useCodeHostingApi } from './app';
import { adminAuthorization, api, basic, createOrg, createUser, type Actor } from './actors';

// A wrong password and a name no account has must not be told apart: not by the answer, and not by
// the time it takes, which is the password hash's. The time itself is the machine's, so the tests
// watch the hash's work instead: every scrypt derivation the process runs, with its parameters
// (the real function runs; it is only watched).
const service = useCodeHostingApi();

let alice: Actor;
beforeAll(async () => {
  alice = await createUser(service, 'alice');
});

function login(username: string, password: string) {
  return service.request.get(`${api}/user`).set('Authorization', basic(username, password));
}

interface Derivation {
  keyLength: number;
  saltLength: number;
  N: number | undefined;
  r: number | undefined;
  p: number | undefined;
}

/** The scrypt derivations the request made (the process's, while it ran). */
async function derivationsOf(request: () => PromiseLike<unknown>): Promise<Derivation[]> {
  const spy = jest.spyOn(crypto, 'scrypt');
  try {
    await request();
    return spy.mock.calls.map(([, salt, keyLength, options]) => ({
      keyLength,
      saltLength: Buffer.from(salt as Buffer).length,
      N: typeof options === 'object' ? options.N : undefined,
      r: typeof options === 'object' ? options.r : undefined,
      p: typeof options === 'object' ? options.p : undefined,
    }));
  } finally {
    spy.mockRestore();
  }
}

describe('a password login that fails', () => {
  it('answers a name no account has exactly as a wrong password', async () => {
    const wrong = await login(alice.username, 'wrong-password').set('X-Request-Id', 'same-id');
    const unknown = await login('no-such-account', 'wrong-password').set('X-Request-Id', 'same-id');
    const answer = (response: typeof wrong) => {
      const { date: _date, ...headers } = response.headers;
      return { status: response.status, headers, body: response.body as unknown };
    };
    expect(answer(unknown)).toEqual(answer(wrong));
    expect(wrong.status).toBe(401);
  });

  it('checks the password against a hash of the same cost whether or not the account exists', async () => {
    const org = await createOrg(service, alice);
    const inactive = await createUser(service, 'inactive');
    await service.request
      .patch(`${api}/admin/users/${inactive.username}`)
      .set('Authorization', adminAuthorization)
      .send({ login_name: inactive.username, source_id: 0, active: false })
      .expect(200);

    const wrongPassword = await derivationsOf(() => login(alice.username, 'wrong-password').expect(401));
    // One derivation, of the configured cost (the test apps' 16), as the account's own hash has it.
    expect(wrongPassword).toEqual([{ keyLength: 32, saltLength: 16, N: 16, r: 8, p: 1 }]);
    for (const [name, password] of [
      ['no-such-account', 'wrong-password'],
      // An organization has no password.
      [org.name, 'wrong-password'],
      // An inactive account is refused even with its password, after the same check.
      [inactive.username, inactive.password],
    ] as const) {
      expect({ name, derivations: await derivationsOf(() => login(name, password).expect(401)) }).toEqual({
        name,
        derivations: wrongPassword,
      });
    }
  });
});

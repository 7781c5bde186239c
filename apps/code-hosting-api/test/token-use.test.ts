import { useTestApp } from '@repo/testing';
import type { Database } from '../src/db/database';
import { tokenStore } from '../src/db/token-store';
import { api, basic, createUser, type Actor } from './actors';
import { createTestApp, testSettings } from './app';

// A token's last use (access_tokens.last_used_at) is written after the response and at most
// once per interval: a request authenticated by token costs no write while a recent use is
// stored. The app records uses at the time of a clock the test moves, so what is written, and
// when, follows from the test's own steps, never from how fast the machine is. The API shows the
// column nowhere (the token list leaves it out), so the test reads it. Each test has a user of
// its own: none depends on another's having run.
const intervalMs = 60_000;

/** The clock the app records a token's use at; each test moves it as it needs. */
let now = Date.parse('2026-03-01T12:00:00.000Z');
const tokenWrites: string[] = [];
let app: { database: Database; settled(): Promise<void> } | undefined;
const service = useTestApp(async (source) => {
  const instance = await createTestApp(source, {
    settings: { ...testSettings, tokenUseIntervalMs: intervalMs },
    clock: () => now,
    connect: {
      onQuery: (sql) => {
        if (/^\s*UPDATE\b[^;]*"access_tokens"/i.test(sql)) tokenWrites.push(sql);
      },
    },
  });
  app = instance;
  return instance;
});

async function lastUsed(actor: Actor): Promise<number | undefined> {
  const rows = await app!.database.prisma.$queryRaw<{ last_used_at: Date | null }[]>`
    SELECT t.last_used_at FROM access_tokens t JOIN accounts a ON a.id = t.account_id
    WHERE a.lower_name = ${actor.username.toLowerCase()}`;
  expect(rows).toHaveLength(1);
  return rows[0]!.last_used_at?.getTime();
}

/** Token requests, then waits for the writes they started; the writes they made. */
async function useToken(actor: Actor, times = 1): Promise<number> {
  tokenWrites.length = 0;
  for (let i = 0; i < times; i += 1) {
    await service.request.get(`${api}/user`).set('Authorization', `token ${actor.token}`).expect(200);
  }
  await app!.settled();
  return tokenWrites.length;
}

describe("a token's last use", () => {
  it('is empty until the token is used, then the time of its first use, in one write', async () => {
    const user = await createUser(service, 'first-use');
    expect(await lastUsed(user)).toBeUndefined();
    now += 1_000;
    expect(await useToken(user)).toBe(1);
    expect(await lastUsed(user)).toBe(now);
  });

  it('is not written again within the interval, however often the token is used', async () => {
    const user = await createUser(service, 'within-interval');
    await useToken(user);
    const stored = await lastUsed(user);
    now += intervalMs - 1;
    expect(await useToken(user, 10)).toBe(0);
    expect(await lastUsed(user)).toBe(stored);
  });

  it('moves with the first use after the interval, and only that one', async () => {
    const user = await createUser(service, 'after-interval');
    await useToken(user);
    now += intervalMs;
    expect(await useToken(user, 3)).toBe(1);
    expect(await lastUsed(user)).toBe(now);
  });

  it('is not moved by another replica within the interval (the write is conditional)', async () => {
    const user = await createUser(service, 'other-replica');
    await useToken(user);
    const stored = await lastUsed(user);
    // What a second replica, which remembers no write, runs on its first use of the token.
    const [row] = await app!.database.prisma.$queryRaw<{ id: bigint }[]>`
      SELECT t.id FROM access_tokens t JOIN accounts a ON a.id = t.account_id
      WHERE a.lower_name = ${user.username.toLowerCase()}`;
    const later = now + intervalMs - 1;
    await tokenStore(app!.database).touchToken(
      Number(row!.id),
      new Date(later),
      new Date(later - intervalMs),
    );
    expect(await lastUsed(user)).toBe(stored);
    // Once the interval has passed, the same write moves it.
    const due = now + intervalMs;
    await tokenStore(app!.database).touchToken(Number(row!.id), new Date(due), new Date(due - intervalMs));
    expect(await lastUsed(user)).toBe(due);
  });

  it('is never written for Basic authentication', async () => {
    const user = await createUser(service, 'basic-only');
    tokenWrites.length = 0;
    await service.request
      .get(`${api}/user`)
      .set('Authorization', basic(user.username, user.password))
      .expect(200);
    await app!.settled();
    expect(tokenWrites).toEqual([]);
    expect(await lastUsed(user)).toBeUndefined();
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { useTestApp } from '@repo/testing';
import type { Database } from '../src/db/database';
import { tokenStore } from '../src/db/token-store';
import { api, basic, createUser, type Actor } from './actors';
import { createTestApp, testSettings } from './app';

// A token's last use (access_tokens.last_used_at) is written after the response and at most
// once per interval: a request authenticated by token costs no write while a recent use is
// stored. The interval is shortened here so the test sees the next interval's write. The API
// shows the column nowhere (the token list leaves it out), so the test reads it.
// Long enough that ten requests fit inside one interval on a loaded CI machine (300 ms did not).
const intervalMs = 2_000;

const tokenWrites: string[] = [];
let app: { database: Database; settled(): Promise<void> } | undefined;
const service = useTestApp(async (source) => {
  const instance = await createTestApp(
    source,
    { ...testSettings, tokenUseIntervalMs: intervalMs },
    {
      onQuery: (sql) => {
        if (/^\s*UPDATE\b[^;]*"access_tokens"/i.test(sql)) tokenWrites.push(sql);
      },
    },
  );
  app = instance;
  return instance;
});

async function lastUsed(actor: Actor): Promise<Date | null> {
  const rows = await app!.database.prisma.$queryRaw<{ last_used_at: Date | null }[]>`
    SELECT t.last_used_at FROM access_tokens t JOIN accounts a ON a.id = t.account_id
    WHERE a.lower_name = ${actor.username.toLowerCase()}`;
  expect(rows).toHaveLength(1);
  return rows[0]!.last_used_at;
}

/** Token requests, then waits for the writes they started. */
async function useToken(actor: Actor, times = 1): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    await service.request.get(`${api}/user`).set('Authorization', `token ${actor.token}`).expect(200);
  }
  await app!.settled();
}

describe("a token's last use", () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it('is empty until the token is used, then the time of its first use, in one write', async () => {
    expect(await lastUsed(alice)).toBeNull();
    const before = Date.now();
    tokenWrites.length = 0;
    await useToken(alice);
    expect(tokenWrites).toHaveLength(1);
    const used = (await lastUsed(alice))!.getTime();
    expect(used).toBeGreaterThanOrEqual(before);
    expect(used).toBeLessThanOrEqual(Date.now());
  });

  it('is not written again within the interval, however often the token is used', async () => {
    await sleep(intervalMs);
    await useToken(alice);
    const stored = await lastUsed(alice);
    tokenWrites.length = 0;
    await useToken(alice, 10);
    expect(tokenWrites).toEqual([]);
    expect(await lastUsed(alice)).toEqual(stored);
  });

  it('moves with the first use after the interval', async () => {
    await useToken(alice);
    const stored = (await lastUsed(alice))!.getTime();
    await sleep(intervalMs + 50);
    tokenWrites.length = 0;
    await useToken(alice, 3);
    expect(tokenWrites).toHaveLength(1);
    expect((await lastUsed(alice))!.getTime()).toBeGreaterThanOrEqual(stored + intervalMs);
  });

  it('is not moved by another replica within the interval (the write is conditional)', async () => {
    await sleep(intervalMs + 50);
    await useToken(alice);
    const stored = await lastUsed(alice);
    // What a second replica, which remembers no write, runs on its first use of the token.
    const rows = await app!.database.prisma.$queryRaw<{ id: bigint }[]>`
      SELECT t.id FROM access_tokens t JOIN accounts a ON a.id = t.account_id
      WHERE a.lower_name = ${alice.username.toLowerCase()}`;
    await tokenStore(app!.database).touchToken(Number(rows[0]!.id), new Date(Date.now() - intervalMs));
    expect(await lastUsed(alice)).toEqual(stored);
  });

  it('is never written for Basic authentication', async () => {
    await sleep(intervalMs + 50);
    tokenWrites.length = 0;
    await service.request
      .get(`${api}/user`)
      .set('Authorization', basic(alice.username, alice.password))
      .expect(200);
    await app!.settled();
    expect(tokenWrites).toEqual([]);
  });
});

import { useTestApp } from '@repo/testing';
import { connectPrisma } from '../src/db/database';
import { composeApp } from '../src/compose';
import { ConcurrencyGate } from '../src/http/concurrency-gate';
import { createLogger } from '../src/logger';
import { testAuthConfig } from './app';
import { admin, createProject, rootUid } from './project-fixtures';
import { clientDecode, rawBytes } from './wire-formats';

/** The gate, telling the test when a list asks it for a turn (instead of the test guessing a delay). */
class WatchedGate extends ConcurrencyGate {
  private asked: (() => void) | undefined;

  override acquire(): ReturnType<ConcurrencyGate['acquire']> {
    const permit = super.acquire();
    this.asked?.();
    return permit;
  }

  /** Resolves when the next list asks for a turn (it is in line, if no permit was free); fails after `withinMs`. */
  nextAsk(withinMs = 5_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no list asked the gate for a turn within ${withinMs} ms`)),
        withinMs,
      );
      this.asked = () => {
        this.asked = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

// One unpaged list at a time, waiting 300 ms for a turn: the test holds the permit itself to
// play the list that is already streaming.
const gate = new WatchedGate({ concurrency: 1, queueMs: 300 });
const service = useTestApp(async (source) => {
  const database = connectPrisma(source);
  const app = composeApp({
    database,
    logger: createLogger(process.env.LOG_LEVEL ?? 'silent'),
    auth: testAuthConfig,
    unpagedLists: gate,
  });
  return { app, close: () => database.close() };
});

beforeAll(async () => {
  const root = await rootUid(service);
  for (let index = 0; index < 3; index++) await createProject(service, { parent_uid: root });
});

const unpagedList = () => service.request.get('/projects').set('Authorization', admin());

describe('the bound of concurrent unpaged lists', () => {
  it('answers 429 with Retry-After and the error body when no turn comes within the wait', async () => {
    const release = (await gate.acquire())!;
    try {
      const started = Date.now();
      const response = await unpagedList().expect(429);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(response.headers['retry-after']).toBe('2');
      expect(response.body).toEqual({
        code: '429',
        message: 'too many unpaged lists in progress; retry later, or page with page_size',
      });
      // In the format asked for, like every error.
      const xml = await unpagedList()
        .set('Accept', 'application/xml')
        .buffer(true)
        .parse(rawBytes)
        .expect(429);
      expect(clientDecode('Error', 'xml', xml.body as Buffer)).toMatchObject({ code: '429' });
    } finally {
      release();
    }
    expect(gate.usage).toEqual({ active: 0, waiting: 0 });
  });

  it('does not bound paged lists: they hold at most a page', async () => {
    const release = (await gate.acquire())!;
    try {
      const response = await service.request
        .get('/projects')
        .query({ page_size: 2 })
        .set('Authorization', admin())
        .expect(200);
      expect(response.body.projects).toHaveLength(2);
    } finally {
      release();
    }
  });

  it('serves a list that waited in line once the list before it finishes', async () => {
    const release = (await gate.acquire())!;
    const asked = gate.nextAsk();
    const answered = unpagedList().then((response) => response);
    await asked;
    expect(gate.usage).toEqual({ active: 1, waiting: 1 });
    release();
    const response = await answered;
    expect(response.status).toBe(200);
    expect(response.body.projects.length).toBeGreaterThanOrEqual(4);
    expect(gate.usage).toEqual({ active: 0, waiting: 0 });
  });

  /**
   * The gate's usage once the handlers have finished: a list gives its permit back when its
   * handler returns, which for gob is after its snapshot transaction commits, a round trip after
   * the client may already hold the last byte.
   */
  async function usageWhenSettled() {
    for (let attempt = 0; attempt < 50 && gate.usage.active > 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return gate.usage;
  }

  it('gives the permit back after every list, in every format, so lists never starve', async () => {
    for (const accept of ['application/json', 'application/xml', 'application/gob']) {
      await unpagedList().set('Accept', accept).buffer(true).parse(rawBytes).expect(200);
      expect(await usageWhenSettled()).toEqual({ active: 0, waiting: 0 });
    }
  });

  it('gives the permit back when the client goes away mid-list', async () => {
    const request = unpagedList();
    request.on('response', () => request.abort());
    await request.then(
      () => undefined,
      () => undefined,
    );
    expect(await usageWhenSettled()).toEqual({ active: 0, waiting: 0 });
    await unpagedList().expect(200);
  });
});

describe('ConcurrencyGate', () => {
  it('hands permits out up to its bound, then first come first served, and gives each back once', async () => {
    const bounded = new ConcurrencyGate({ concurrency: 2, queueMs: 1000 });
    const first = (await bounded.acquire())!;
    const second = (await bounded.acquire())!;
    const order: string[] = [];
    const third = bounded.acquire().then((release) => {
      order.push('third');
      return release;
    });
    const fourth = bounded.acquire().then((release) => {
      order.push('fourth');
      return release;
    });
    expect(bounded.usage).toEqual({ active: 2, waiting: 2 });
    first();
    first();
    (await third)!();
    second();
    (await fourth)!();
    expect(order).toEqual(['third', 'fourth']);
    expect(bounded.usage).toEqual({ active: 0, waiting: 0 });
  });

  it('refuses at once with no wait, and drops a waiter whose wait ran out', async () => {
    const immediate = new ConcurrencyGate({ concurrency: 1, queueMs: 0 });
    const held = (await immediate.acquire())!;
    await expect(immediate.acquire()).resolves.toBeUndefined();
    held();
    const brief = new ConcurrencyGate({ concurrency: 1, queueMs: 20 });
    const holding = (await brief.acquire())!;
    await expect(brief.acquire()).resolves.toBeUndefined();
    expect(brief.usage).toEqual({ active: 1, waiting: 0 });
    holding();
    expect(brief.usage).toEqual({ active: 0, waiting: 0 });
  });
});

import type { Response, Test } from 'supertest';
import { watchEvents, type EventWatch } from '../nats';
import { openStreamReader, type StreamReader } from '../stream-reader';
import type { TestApp } from '../test-app';

// X-Sync, as both services answer it: `true` waits for the write's PubAck and says how it went in
// X-Sync-Status; `false` or absent, and failing writes, carry no X-Sync-Status; events off answer
// `disabled`; NATS unreachable answers `pending` within the bound, the write committed; any other
// value is refused as the app refuses an invalid request.

/** One write of the app that records a change event, sent by `send`. */
export interface SyncedWrite {
  /** Its success status. */
  status: number;
  /**
   * Makes what the write needs first (the resource it changes), then sends it to `app` with
   * `withSync` applied to the request (X-Sync set, or not). Resolves with the response, the subject
   * (with the stream's subject prefix) its change event is published on, and a check that it is
   * stored (a GET shows what it answered).
   */
  send(app: TestApp, withSync: (request: Test) => Test): Promise<SentWrite>;
}

export interface SentWrite {
  response: Response;
  subject: string;
  expectStored(): Promise<void>;
}

export interface XSyncOptions {
  natsUrl: string;
  /** The stream `service` publishes to (the test file's own). */
  stream: string;
  /** The app with events on. */
  service: TestApp;
  /** The app with events off (NATS_URL unset). */
  eventsOff: TestApp;
  /** The app with events on, at a NATS URL nobody listens on, X-Sync bounded to `unreachableSyncMs`. */
  unreachable: TestApp;
  unreachableSyncMs: number;
  /**
   * Every write that records a change event, by name. The first records exactly one event and makes
   * none before it (a create): the suite counts the stream's messages around it.
   */
  writes: Record<string, SyncedWrite>;
  /** Writes of `app` that fail (4xx), with their status; the suite sends each with X-Sync: true. */
  failing(app: TestApp): Promise<{ status: number; request: Test }[]>;
  /** What a write with an X-Sync other than true or false answers (the app's validation status and body). */
  invalid: { status: 400 | 422; body: unknown };
}

const setSync = (value: string | undefined) => (request: Test) =>
  value === undefined ? request : request.set('X-Sync', value);

export function describeXSync(options: XSyncOptions): void {
  const { service, eventsOff, unreachable } = options;
  const writes = Object.entries(options.writes);
  const [first] = writes;
  if (!first) throw new Error('describeXSync needs at least one write');

  let watch: EventWatch;
  /** Open before the writes: a read right after a response sees the stream as it was then. */
  let reader: StreamReader;

  beforeAll(async () => {
    watch = await watchEvents(options.natsUrl, { stream: options.stream });
    reader = await openStreamReader(options.natsUrl, options.stream);
  });

  afterAll(async () => {
    await reader?.close();
    await watch?.close();
  });

  /** Waits for the event of the write `sent` (the one on its subject with its request id). */
  const eventOf = async (sent: SentWrite) => {
    const requestId = sent.response.headers['x-request-id'];
    const matches = (received: (typeof watch.events)[number]) =>
      received.subject === sent.subject && received.event['requestid'] === requestId;
    await watch.waitFor((received) => received.some(matches));
    return watch.events.find(matches);
  };

  describe('X-Sync: true with events on', () => {
    it.each(writes)('%s answers published, its event already in the stream', async (_name, write) => {
      const sent = await write.send(service, setSync('true'));
      const answeredAt = Date.now();
      // Read from JetStream before anything else happens: the PubAck came before the response.
      const stored = await reader.lastOn(sent.subject);
      expect(sent.response.status).toBe(write.status);
      expect(sent.response.headers['x-sync-status']).toBe('published');
      expect(stored?.event['requestid']).toBe(sent.response.headers['x-request-id']);
      expect(stored?.msgId).toBe(stored?.event['id']);
      // Stored by JetStream (its clock: this machine's) before the response came back.
      expect(stored?.storedAt).toBeLessThanOrEqual(answeredAt);
    });

    it(`counts the event in the stream by the time ${first[0]} answers`, async () => {
      await watch.settled();
      const before = await reader.messages();
      const sent = await first[1].send(service, setSync('true'));
      const after = await reader.messages();
      expect(sent.response.headers['x-sync-status']).toBe('published');
      expect(after).toBe(before + 1);
    });
  });

  describe.each([
    ['false', 'false'],
    ['absent', undefined],
  ])('X-Sync %s', (_value, sync) => {
    it.each(writes)(
      '%s answers without X-Sync-Status, and its event is published anyway',
      async (_name, write) => {
        const sent = await write.send(service, setSync(sync));
        expect(sent.response.status).toBe(write.status);
        expect(sent.response.headers['x-sync-status']).toBeUndefined();
        expect(await eventOf(sent)).toBeDefined();
      },
    );
  });

  describe('X-Sync: true on a write that fails', () => {
    it('carries no X-Sync-Status', async () => {
      for (const { status, request } of await options.failing(service)) {
        const response = await request.set('X-Sync', 'true');
        expect({ status: response.status, xSyncStatus: response.headers['x-sync-status'] }).toEqual({
          status,
          xSyncStatus: undefined,
        });
      }
    });
  });

  describe('X-Sync other than true or false', () => {
    it.each(['yes', 'TRUE', '1', ''])(
      '%j is refused as an invalid request, naming the header',
      async (value) => {
        const sent = await first[1].send(service, setSync(value));
        expect(sent.response.status).toBe(options.invalid.status);
        expect(sent.response.body).toEqual(options.invalid.body);
        expect(JSON.stringify(sent.response.body)).toContain('X-Sync');
        expect(sent.response.headers['x-sync-status']).toBeUndefined();
      },
    );
  });

  describe('X-Sync with events off', () => {
    it.each(writes)('%s answers disabled', async (_name, write) => {
      const sent = await write.send(eventsOff, setSync('true'));
      expect(sent.response.status).toBe(write.status);
      expect(sent.response.headers['x-sync-status']).toBe('disabled');
    });

    it('answers no X-Sync-Status to X-Sync: false', async () => {
      const sent = await first[1].send(eventsOff, setSync('false'));
      expect(sent.response.status).toBe(first[1].status);
      expect(sent.response.headers['x-sync-status']).toBeUndefined();
    });
  });

  describe('X-Sync: true with NATS unreachable', () => {
    it.each(writes)('%s succeeds with pending within the bound, and is stored', async (_name, write) => {
      let started = 0;
      const sent = await write.send(unreachable, (request) => {
        started = performance.now();
        return request.set('X-Sync', 'true');
      });
      const ms = performance.now() - started;
      expect(sent.response.status).toBe(write.status);
      expect(sent.response.headers['x-sync-status']).toBe('pending');
      // The bound, plus what the write itself takes on a busy machine.
      expect(ms).toBeLessThan(options.unreachableSyncMs + 1500);
      await sent.expectStored();
    });

    it('answers writes without X-Sync as usual', async () => {
      const sent = await first[1].send(unreachable, setSync(undefined));
      expect(sent.response.status).toBe(first[1].status);
      expect(sent.response.headers['x-sync-status']).toBeUndefined();
    });
  });
}

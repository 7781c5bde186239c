import { randomBytes } from 'node:crypto';
import { DeliverPolicy, jetstream, jetstreamManager, type JsMsg } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { z } from 'zod';
import {
  eventsEnvironmentShape,
  toEventsSettings,
  type EventsSettings,
} from '../../src/events/events-config';

// What the event tests need of NATS (the machine's, NATS_URL): settings with a stream and subject
// prefix of the test file's own, a watcher reading the stream from its first message, and the
// stream's deletion afterwards. Tests only read what the service published.

/**
 * The NATS the event tests use (NATS_URL), or undefined: then the file's tests do not run, it says
 * so in one line, and registers (through `register`, the file's `it`) one test that fails when
 * NATS_TESTS=required.
 */
export function natsForEventTests(
  suite: string,
  register: (name: string, check: () => void) => void,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const url = env['NATS_URL'];
  if (url) return url;
  const line = `${suite}: event tests NOT run: NATS_URL is unset (nats://127.0.0.1:4222 is the machine's NATS)`;
  const required = env['NATS_TESTS'] === 'required';
  if (!required) process.stderr.write(`${line}\n`);
  register('has a NATS to publish events to (required when NATS_TESTS=required)', () => {
    if (required) throw new Error(`${line}; NATS_TESTS=required`);
  });
  return undefined;
}

/** The events settings of one test file: the service's defaults, with a stream and subject prefix of its own. */
export function eventTestSettings(natsUrl: string, label: string): EventsSettings {
  const random = randomBytes(4).toString('hex');
  const settings = toEventsSettings(
    z.object(eventsEnvironmentShape).parse({
      NATS_URL: natsUrl,
      EVENTS_STREAM: `T_${label.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${random.toUpperCase()}`,
      EVENTS_SUBJECT_PREFIX: `t${random}.`,
    }),
  );
  if (!settings) throw new Error('events settings without NATS_URL');
  return settings;
}

/** One message of the stream, as a consumer sees it. */
export interface ReceivedEvent {
  subject: string;
  /** The Nats-Msg-Id header. */
  msgId: string | undefined;
  /** The Content-Type header. */
  contentType: string | undefined;
  /** The parsed body: the CloudEvent. */
  event: Record<string, unknown>;
}

export interface StreamWatch {
  /** Every message so far, in stream order. */
  readonly events: readonly ReceivedEvent[];
  /** Resolves with every message once there are at least `count` (rejects after `timeoutMs`, listing them). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedEvent[]>;
  /** The message after the one the previous call returned (the first, at first), once it arrived. */
  next(timeoutMs?: number): Promise<ReceivedEvent>;
  close(): Promise<void>;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function received(msg: JsMsg): ReceivedEvent {
  return {
    subject: msg.subject,
    msgId: msg.headers?.get('Nats-Msg-Id') || undefined,
    contentType: msg.headers?.get('Content-Type') || undefined,
    event: JSON.parse(msg.string()) as Record<string, unknown>,
  };
}

function listed(events: readonly ReceivedEvent[]): string {
  return events
    .map((e) => `\n  ${e.subject} ${String(e.event['type'])} #${String(e.event['sequence'])}`)
    .join('');
}

/**
 * Reads `stream` (only `filterSubject`, when given) from its first message with an ordered
 * consumer. The service creates the stream when it first publishes, so the consumer starts at the
 * first wait, once the stream exists.
 */
export function watchStream(natsUrl: string, stream: string, filterSubject?: string): StreamWatch {
  const events: ReceivedEvent[] = [];
  const listeners = new Set<() => void>();
  let failure: Error | undefined;
  let closing = false;
  let started: Promise<{ stop(): Promise<void> }> | undefined;
  let cursor = 0;

  async function start() {
    const nc = await connect({ servers: natsUrl.split(','), name: `test watch ${stream}` });
    try {
      const manager = await jetstreamManager(nc);
      for (const deadline = Date.now() + 10_000; ; await delay(50)) {
        try {
          await manager.streams.info(stream);
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
        }
      }
      const consumer = await jetstream(nc).consumers.get(stream, {
        deliver_policy: DeliverPolicy.All,
        ...(filterSubject === undefined ? {} : { filter_subjects: filterSubject }),
      });
      const messages = await consumer.consume();
      const loop = (async () => {
        try {
          for await (const msg of messages) {
            events.push(received(msg));
            for (const listener of [...listeners]) listener();
          }
        } catch (error) {
          if (!closing) failure = error instanceof Error ? error : new Error(String(error));
        }
        for (const listener of [...listeners]) listener();
      })();
      return {
        async stop() {
          await messages.close();
          await loop;
          await nc.close();
        },
      };
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  const watch: StreamWatch = {
    events,
    async next(timeoutMs) {
      const all = await watch.waitFor(cursor + 1, timeoutMs);
      cursor += 1;
      return all[cursor - 1]!;
    },
    async waitFor(count, timeoutMs = 10_000) {
      started ??= start();
      await started;
      return new Promise((resolve, reject) => {
        const finish = (error?: Error) => {
          listeners.delete(check);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve([...events]);
        };
        const check = () => {
          if (events.length >= count) finish();
          else if (failure) finish(failure);
        };
        const timer = setTimeout(
          () =>
            finish(new Error(`${stream}: waited ${timeoutMs} ms for ${count} events; got:${listed(events)}`)),
          timeoutMs,
        );
        listeners.add(check);
        check();
      });
    },
    async close() {
      closing = true;
      await started?.then(
        (running) => running.stop(),
        () => undefined,
      );
    },
  };
  return watch;
}

/** Deletes the test file's stream (the service never deletes one). */
export async function deleteStream(natsUrl: string, stream: string): Promise<void> {
  const nc = await connect({ servers: natsUrl.split(',') });
  try {
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => false);
  } finally {
    await nc.close();
  }
}

/** What one write's event must be. */
export interface ExpectedEvent {
  type: string;
  aggregate: 'orgs' | 'attachments';
  resourceId: number;
  /** The resource as the API answered the write (or a GET showed it, for a 204). */
  data: unknown;
  actor: string;
  /** The X-Request-Id of the write's response. */
  requestId: string;
  sequence: number;
}

/**
 * Checks one published event against the write that made it: subject, headers, the CloudEvents
 * attributes and extensions (and no others), and `data`.
 */
export function expectEvent(
  received: ReceivedEvent,
  expected: ExpectedEvent,
  stream: { settings: EventsSettings; source: string },
): void {
  const action = expected.type.slice(expected.type.indexOf('.') + 1);
  const { event } = received;
  expect({ subject: received.subject, type: event['type'], sequence: event['sequence'] }).toEqual({
    subject: `${stream.settings.stream.subjectPrefix}${expected.aggregate}.${expected.resourceId}.${action}`,
    type: expected.type,
    sequence: String(expected.sequence),
  });
  expect(received.contentType).toBe('application/cloudevents+json');
  expect(received.msgId).toBe(event['id']);
  expect(event).toStrictEqual({
    specversion: '1.0',
    id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    source: stream.source,
    type: expected.type,
    subject: String(expected.resourceId),
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/),
    datacontenttype: 'application/json',
    data: expected.data,
    actor: expected.actor,
    requestid: expected.requestId,
    sequence: String(expected.sequence),
  });
}

import { parseArgs } from 'node:util';
import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { loadConfig } from '../config';
import { SERVICE_NAME } from '../service-name';
import { requireEvents, runCommand, UsageError } from './event-commands';
import type { EventsSettings } from './events-config';
import { natsServerOptions } from './nats-connection';

// `npm run events:tail` (repository root: `npm run events:tail -- <app>`): prints the events of the
// service's stream (NATS_URL, EVENTS_STREAM) as they are published, one line each, until Ctrl-C.

const USAGE = 'usage: events:tail [--all] [--json] [--subject <filter, e.g. projects.*.created>]';

/** One event as a line: time, subject, type, sequence, actor (- when none), then `data` on one line. */
export function eventLine(subject: string, body: string): string {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return `${subject} (not JSON) ${body}`;
  }
  const field = (name: string) => (typeof event[name] === 'string' ? (event[name] as string) : '-');
  return [
    field('time'),
    subject,
    field('type'),
    `#${field('sequence')}`,
    field('actor'),
    JSON.stringify(event['data'] ?? null),
  ].join('  ');
}

export interface TailOptions {
  settings: EventsSettings;
  /** From the stream's first event rather than the next one. */
  all?: boolean;
  /** Print each CloudEvent whole (the message body) instead of a summary line. */
  json?: boolean;
  /** Only the subjects matching this filter (`projects.*.created`); the stream's all when absent. */
  subject?: string;
  /** Where the lines go. */
  write: (line: string) => void;
  /** Called once the consumer is in place: every event published from then on is printed. */
  ready?: () => void;
  /** Said once while the stream does not exist yet. */
  notice?: (line: string) => void;
  /** Stops the tail when aborted. */
  signal: AbortSignal;
}

const delay = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

async function waitForStream(connection: NatsConnection, options: TailOptions): Promise<void> {
  const manager = await jetstreamManager(connection);
  let told = false;
  while (!options.signal.aborted) {
    try {
      await manager.streams.info(options.settings.stream.name);
      return;
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound))
        throw error;
    }
    if (!told) {
      options.notice?.(
        `events:tail: no stream ${options.settings.stream.name} yet (the service creates it when it starts with NATS_URL set); waiting`,
      );
      told = true;
    }
    await delay(1000, options.signal);
  }
}

/**
 * Prints the stream's events as they arrive, through an ordered consumer (nothing left on the
 * server when it ends), until `signal` aborts; from the next event, or from the first with `all`.
 */
export async function tailEvents(options: TailOptions): Promise<void> {
  const { settings, signal } = options;
  const connection = await connect({
    ...natsServerOptions(settings),
    name: `${SERVICE_NAME} events:tail`,
    maxReconnectAttempts: -1,
  });
  try {
    await waitForStream(connection, options);
    if (signal.aborted) return;
    const consumer = await jetstream(connection).consumers.get(settings.stream.name, {
      deliver_policy: options.all ? DeliverPolicy.All : DeliverPolicy.New,
      ...(options.subject === undefined
        ? {}
        : { filter_subjects: settings.stream.subjectPrefix + options.subject }),
    });
    const messages = await consumer.consume();
    options.ready?.();
    const stop = () => void messages.close();
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const message of messages) {
        options.write(options.json ? message.string() : eventLine(message.subject, message.string()));
      }
    } finally {
      signal.removeEventListener('abort', stop);
    }
  } finally {
    await connection.close();
  }
}

async function main(): Promise<number> {
  let values: { all?: boolean; json?: boolean; subject?: string };
  try {
    ({ values } = parseArgs({
      options: { all: { type: 'boolean' }, json: { type: 'boolean' }, subject: { type: 'string' } },
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const config = loadConfig();
  const settings = requireEvents(config.events, 'events:tail');
  const controller = new AbortController();
  // Ctrl-C (and a closed terminal, or a SIGTERM) ends the tail: the consumer stops, the connection closes.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.once(signal, () => controller.abort());
  await tailEvents({
    settings,
    all: values.all,
    json: values.json,
    subject: values.subject,
    write: (line) => console.log(line),
    ready: () =>
      console.error(
        `events:tail: ${values.all ? 'every event' : 'new events'} of stream ${settings.stream.name}${
          values.subject ? ` on ${settings.stream.subjectPrefix}${values.subject}` : ''
        } (Ctrl-C to stop)`,
      ),
    notice: (line) => console.error(line),
    signal: controller.signal,
  });
  return 0;
}

if (require.main === module) runCommand(main);

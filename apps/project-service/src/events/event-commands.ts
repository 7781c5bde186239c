import pino from 'pino';
import type { PrismaClient } from '../generated/prisma/client';
import { lastPosition, pendingThrough } from '../db/outbox';
import { createLogger, type Logger } from '../logger';
import type { EventsSettings } from './events-config';
import type { DataRenderers } from './relay';
import { startServiceEvents } from './service-events';

// What the event commands (replay-command.ts, snapshot-command.ts) share: publishing what they put
// in the outbox with a relay of their own, and the command-line plumbing.

/** What a command publishing from the outbox needs. */
export interface EventCommandOptions {
  settings: EventsSettings;
  prisma: PrismaClient;
  logger: Logger;
  /** The events' `source`, as the service sets it. */
  source: string;
  /** The app's renderers of recorded images, as the service's relay has them. */
  renderers: DataRenderers;
  /** Epoch ms: past it, what is left stays in the outbox for the service's relay. */
  deadline: number;
}

/** What a command's relay did. */
export interface DrainOutcome {
  /** Events this command's relay published (a running service's relays may publish others). */
  published: number;
  /** Events recorded before the command finished recording that are still not published (0: done). */
  pending: number;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits for `promise`, at most `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms)))),
  ]);
  clearTimeout(timer);
}

/**
 * Publishes the outbox with a relay of the command's own (no loop: drain) until every event up to
 * the last one recorded now is published, by this relay or a running service's (the claims keep
 * them apart and each resource in order), or until the deadline. Later events are the service's.
 */
export async function drainOutbox(options: EventCommandOptions): Promise<DrainOutcome> {
  const { prisma, deadline } = options;
  const through = await lastPosition(prisma);
  const events = startServiceEvents({ ...options, startRelay: false });
  let published = 0;
  try {
    // Connected first: publishing before would count as an outage (and log one).
    await within(events.publisher.connected(), deadline - Date.now());
    for (;;) {
      published += await events.relay.drain(deadline);
      const pending = await pendingThrough(prisma, through);
      // Still pending: claimed by a running service's relay (it publishes them), or NATS is away.
      if (pending === 0 || Date.now() >= deadline) return { published, pending };
      await delay(Math.min(200, Math.max(0, deadline - Date.now())));
    }
  } finally {
    await events.publisher.close();
  }
}

/** "published N by this command", saying so when a running service's relay published some of the `expected`. */
export function publishedLine({ published, pending }: DrainOutcome, expected: number): string {
  const line = `published ${published} by this command`;
  return published + pending < expected ? `${line} (a running service's relay published the others)` : line;
}

/** A wrong use of a command: its message is the usage line, and the command exits 2. */
export class UsageError extends Error {}

/** The events' settings, or the one-line reason the command cannot run (events off). */
export function requireEvents(settings: EventsSettings | undefined, command: string): EventsSettings {
  if (settings) return settings;
  throw new UsageError(
    `${command}: change events are off (NATS_URL is unset); set NATS_URL, e.g. NATS_URL=nats://127.0.0.1:4222`,
  );
}

/** A command's log, on standard error (standard output is its answer). */
export function commandLogger(level: string): Logger {
  return createLogger(level, pino.destination({ fd: 2, sync: true }));
}

/** `--timeout` in seconds (default 60) as a deadline from now. */
export function deadlineOf(timeout: string | undefined, usage: string): number {
  const seconds = timeout === undefined ? 60 : Number(timeout);
  // A day at most: past that, the service's own relay is the one to wait for.
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) throw new UsageError(usage);
  return Date.now() + seconds * 1000;
}

/**
 * Runs a command's main and exits with its code; a UsageError prints its message and exits 2, any
 * other error (an invalid configuration, an unreachable database) its message and exits 1.
 */
export function runCommand(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}

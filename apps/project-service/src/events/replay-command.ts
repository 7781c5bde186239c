import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { requeueForReplay, type ReplayStart } from '../db/outbox';
import { openServiceDatabase } from '../service-main';
import { eventSourceOf } from './command-config';
import { DATA_RENDERERS } from './data-renderers';
import {
  commandLogger,
  deadlineOf,
  drainOutbox,
  requireEvents,
  runCommand,
  publishedLine,
  UsageError,
  type DrainOutcome,
  type EventCommandOptions,
} from './event-commands';

// `npm run events:replay -- --since <RFC 3339 time> | --from-id <event id>` (repository root: `npm
// run events:replay -- <app> …`): publishes the retained events again, with their ids, so a
// consumer that lost some catches up; the stream's duplicate window drops what it already holds.

const USAGE =
  'usage: events:replay (--since <RFC 3339 time, e.g. 2026-11-25T09:00:00Z> | --from-id <event id>) [--timeout <seconds, default 60>]';

const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ReplayOutcome extends DrainOutcome {
  /** Events put back in the relay's queue. */
  requeued: number;
}

/**
 * Puts the retained events from `start` on back in the outbox's queue (same ids), then publishes
 * them (drainOutbox). Undefined when `start.fromId` names no retained event.
 */
export async function runReplay(
  options: EventCommandOptions & { start: ReplayStart },
): Promise<ReplayOutcome | undefined> {
  const requeued = await requeueForReplay(options.prisma, options.start);
  if (requeued === undefined) return undefined;
  return { requeued, ...(await drainOutbox(options)) };
}

/** The replay's start from the command line. */
export function replayStartOf(since: string | undefined, fromId: string | undefined): ReplayStart {
  if ((since === undefined) === (fromId === undefined)) throw new UsageError(USAGE);
  if (since !== undefined) {
    const time = new Date(since);
    if (!RFC_3339.test(since) || Number.isNaN(time.getTime()))
      throw new UsageError(`--since ${since}: not an RFC 3339 time\n${USAGE}`);
    return { since: time };
  }
  if (!UUID.test(fromId ?? ''))
    throw new UsageError(`--from-id ${fromId}: not an event id (a UUID)\n${USAGE}`);
  return { fromId: (fromId ?? '').toLowerCase() };
}

async function main(): Promise<number> {
  let values: { since?: string; 'from-id'?: string; timeout?: string };
  try {
    ({ values } = parseArgs({
      options: { since: { type: 'string' }, 'from-id': { type: 'string' }, timeout: { type: 'string' } },
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const start = replayStartOf(values.since, values['from-id']);
  const deadline = deadlineOf(values.timeout, USAGE);
  const config = loadConfig();
  const settings = requireEvents(config.events, 'events:replay');
  const logger = commandLogger(config.logLevel);
  const database = await openServiceDatabase(config, logger);
  try {
    const outcome = await runReplay({
      settings,
      prisma: database.prisma,
      logger,
      source: eventSourceOf(config),
      renderers: DATA_RENDERERS,
      deadline,
      start,
    });
    if (!outcome) {
      console.error(`events:replay: no retained event has the id ${values['from-id']}`);
      return 1;
    }
    console.log(`requeued ${outcome.requeued} events; ${publishedLine(outcome, outcome.requeued)}`);
    if (outcome.pending === 0) return 0;
    console.error(
      `events:replay: ${outcome.pending} events still pending at the timeout; they stay in the outbox for the service's relay`,
    );
    return 1;
  } finally {
    await database.close();
  }
}

if (require.main === module) runCommand(main);

import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { recordSnapshots, type SnapshotReader } from '../db/outbox';
import { openServiceDatabase } from '../service-main';
import { eventSourceOf, snapshotReaders } from './command-config';
import { DATA_RENDERERS } from './data-renderers';
import {
  commandLogger,
  deadlineOf,
  drainOutbox,
  publishedLine,
  requireEvents,
  runCommand,
  UsageError,
  type DrainOutcome,
  type EventCommandOptions,
} from './event-commands';

// `npm run events:snapshot` (repository root: `npm run events:snapshot -- <app>`): records a
// `<resource>.snapshot` event with the current state of every resource, through the outbox (the
// resource's next sequence number), and publishes them: a consumer rebuilds its index from them.

/**
 * A batch's sequence rows stay locked until its transaction ends; a write to one of them waits that
 * long, within its own transaction's 5 s: batches are kept small enough to end well before.
 */
const MAX_BATCH = 500;

const USAGE =
  'usage: events:snapshot [--batch <resources per transaction, default 200, at most 500>] [--timeout <seconds, default 60>]';

export interface SnapshotOutcome extends DrainOutcome {
  /** Snapshot events recorded, by type (`project.snapshot`: 12). */
  recorded: Record<string, number>;
}

/** Records the snapshot events of every reader's resources (recordSnapshots), then publishes them (drainOutbox). */
export async function runSnapshot(
  options: EventCommandOptions & { readers: readonly SnapshotReader[]; batchSize?: number },
): Promise<SnapshotOutcome> {
  const recorded: Record<string, number> = {};
  for (const reader of options.readers) {
    recorded[reader.type] = await recordSnapshots(options.prisma, reader, options.batchSize ?? 200);
  }
  return { recorded, ...(await drainOutbox(options)) };
}

async function main(): Promise<number> {
  let values: { batch?: string; timeout?: string };
  try {
    ({ values } = parseArgs({ options: { batch: { type: 'string' }, timeout: { type: 'string' } } }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const batchSize = values.batch === undefined ? 200 : Number(values.batch);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) throw new UsageError(USAGE);
  const deadline = deadlineOf(values.timeout, USAGE);
  const config = loadConfig();
  const settings = requireEvents(config.events, 'events:snapshot');
  const logger = commandLogger(config.logLevel);
  const database = await openServiceDatabase(config, logger);
  try {
    const outcome = await runSnapshot({
      settings,
      prisma: database.prisma,
      logger,
      source: eventSourceOf(config),
      renderers: DATA_RENDERERS,
      deadline,
      readers: snapshotReaders(config),
      batchSize,
    });
    const counts = Object.entries(outcome.recorded).map(([type, count]) => `${count} ${type}`);
    const total = Object.values(outcome.recorded).reduce((sum, count) => sum + count, 0);
    console.log(`recorded ${counts.join(', ')} events; ${publishedLine(outcome, total)}`);
    if (outcome.pending === 0) return 0;
    console.error(
      `events:snapshot: ${outcome.pending} events still pending at the timeout; they stay in the outbox for the service's relay`,
    );
    return 1;
  } finally {
    await database.close();
  }
}

if (require.main === module) runCommand(main);

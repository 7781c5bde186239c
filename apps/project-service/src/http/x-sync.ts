import type { Response } from 'express';
import { currentRequestContext } from '../request-context';
import type { ResponseHeaders } from './route-table';

/** What X-Sync waits on: the relay that publishes this process's events. */
export interface PublishWaiter {
  wake(): void;
  awaitPublished(ids: string[], timeoutMs: number): Promise<boolean>;
}

export interface SyncOptions {
  /** Undefined when events are off. */
  relay?: PublishWaiter;
  timeoutMs: number;
}

export type SyncStatus = 'published' | 'pending' | 'disabled';

/** The X-Sync-Status header of the write responses, documented with them. */
export const syncStatusHeader: ResponseHeaders = {
  'X-Sync-Status': {
    description:
      "with X-Sync: true only: `published` (the write's change event is acknowledged by JetStream), `pending` (not within X_SYNC_TIMEOUT_MS, or NATS unreachable: the write is committed and its event follows), `disabled` (events are off)",
    schema: { type: 'string', enum: ['published', 'pending', 'disabled'] },
  },
};

/**
 * X-Sync (docs/events.md): for `true`, waits (bounded) until the change events this
 * request's committed write recorded are acknowledged by JetStream, and sets X-Sync-Status. Never
 * fails: the write is committed, so the answer is its success either way.
 */
export async function settleSync(
  res: Response,
  requested: string | undefined,
  options: SyncOptions,
): Promise<void> {
  if (requested !== 'true') return;
  res.setHeader('X-Sync-Status', await syncStatus(options));
}

async function syncStatus({ relay, timeoutMs }: SyncOptions): Promise<SyncStatus> {
  if (!relay) return 'disabled';
  const ids = currentRequestContext()?.recordedEvents ?? [];
  relay.wake();
  try {
    return (await relay.awaitPublished(ids, timeoutMs)) ? 'published' : 'pending';
  } catch {
    return 'pending';
  }
}

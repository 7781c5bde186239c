// Generated from apps/project-service/src/http/x-sync.ts by `npm run sync:copies`: edit that file, not this copy.
import type { Response } from 'express';
import { currentRequestContext } from '../request-context';

// X-Sync, the same in both services: `X-Sync: true` on a write that records a change event makes
// its response wait (at most X_SYNC_TIMEOUT_MS) until JetStream has acknowledged that event, and
// say how it went in X-Sync-Status. Each service's route table validates the request header (with
// its own validation status) and documents both headers from what is here.

/** The values the X-Sync request header takes. */
export const SYNC_HEADER_VALUES = ['true', 'false'] as const;

/** What the request header means, as the API documents say. */
export const SYNC_HEADER_DESCRIPTION =
  "true: the response waits (at most X_SYNC_TIMEOUT_MS) until the write's change event is acknowledged by JetStream, and says so in X-Sync-Status";

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
export const syncStatusHeader: {
  'X-Sync-Status': { description: string; schema: { type: 'string'; enum: string[] } };
} = {
  'X-Sync-Status': {
    description:
      "with X-Sync: true only: `published` (the write's change event is acknowledged by JetStream), `pending` (not within X_SYNC_TIMEOUT_MS, or NATS unreachable: the write is committed and its event follows), `disabled` (events are off)",
    schema: { type: 'string', enum: ['published', 'pending', 'disabled'] },
  },
};

/**
 * For `requested` `true` (the request's valid X-Sync), waits (bounded) until the change events this
 * request's committed write recorded are acknowledged by JetStream, and sets X-Sync-Status. Called
 * once the write has committed, before the answer: never fails, since the write is committed and
 * the answer is its success either way. A write that fails never gets here: no X-Sync-Status.
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

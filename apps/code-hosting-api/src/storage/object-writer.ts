import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteLimit } from './byte-limit';
import { newObjectKey } from './object-key';
import type { PendingObject, WriteOptions } from './storage';

/** What a backend does with the bytes of a new object; `discard` undoes it whatever stage it reached. */
export interface ObjectSink {
  store(key: string, body: Readable, options: WriteOptions): Promise<void>;
  discard(key: string): Promise<void>;
}

/**
 * Storage.write for every backend: a fresh key, the source cut at the size
 * limit on its way to the backend, and on any failure the backend's partial
 * object removed and the root cause rethrown (the source's own error or
 * SizeLimitExceededError, rather than the "stream closed early" the backend
 * sees as a consequence).
 */
export async function writeNewObject(
  source: Readable,
  options: WriteOptions,
  sink: ObjectSink,
): Promise<PendingObject> {
  if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 0) {
    source.destroy();
    throw new RangeError(`invalid size limit ${options.maxBytes}`);
  }
  const key = newObjectKey();
  const limit = new ByteLimit(options.maxBytes);
  const [fed, stored] = await Promise.allSettled([
    pipeline(source, limit),
    sink.store(key, limit, options).catch((error: unknown) => {
      // A backend that gives up must not leave the source waiting for a reader.
      limit.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }),
  ]);
  if (fed.status === 'fulfilled' && stored.status === 'fulfilled') return { key, size: limit.bytes };
  // The caller needs the cause (413 or the client's disconnect), not a failed
  // cleanup: whatever discard could not remove is an orphan the sweep removes.
  await sink.discard(key).catch(() => undefined);
  throw rootCause(fed, stored);
}

function rootCause(fed: PromiseSettledResult<void>, stored: PromiseSettledResult<void>): unknown {
  if (fed.status === 'rejected' && !isPrematureClose(fed.reason)) return fed.reason;
  if (stored.status === 'rejected') return stored.reason;
  return (fed as PromiseRejectedResult).reason;
}

function isPrematureClose(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
}

import type { Storage, StoredObject } from './storage';

export interface SweepOptions {
  /** Of the keys given, the ones that have an attachment row. */
  keysWithRows(keys: string[]): Promise<Iterable<string>>;
  /** Every key the attachment rows hold, to find the rows whose object is gone. */
  rowKeys: Iterable<string> | AsyncIterable<string>;
  /** Objects younger than this are left alone: an upload may be between its write and its row. Default: one hour. */
  minAgeMs?: number;
  now?: Date;
  /** Keys asked about per keysWithRows call. */
  batchSize?: number;
}

export interface SweepReport {
  /** Objects removed: older than minAgeMs, no row (temporary leftovers and committed orphans alike). */
  removed: StoredObject[];
  /** Row keys with no committed object: lost files, reported for a person to look at, never deleted. */
  missing: string[];
}

export const SWEEP_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * Reconciles storage with the attachment rows after crashes: what no row
 * points to goes once it is old enough that no upload can still be on its way
 * to a row, and rows that point to nothing are reported.
 *
 * Races it leaves open on purpose: an upload slower than minAgeMs whose row
 * commits between the keysWithRows call and the removal loses its object (the
 * row then shows up as missing on the next sweep). On S3 an object's
 * LastModified is when its multipart upload started, so "older than an hour"
 * there means "started more than an hour ago".
 */
export async function sweepAttachments(storage: Storage, options: SweepOptions): Promise<SweepReport> {
  const now = (options.now ?? new Date()).getTime();
  const minAgeMs = options.minAgeMs ?? SWEEP_MIN_AGE_MS;
  const batchSize = options.batchSize ?? 500;
  const committed = new Set<string>();
  const removed: StoredObject[] = [];

  let batch: StoredObject[] = [];
  const removeOrphans = async (): Promise<void> => {
    const withRows = new Set(await options.keysWithRows(batch.map((object) => object.key)));
    for (const object of batch) {
      if (withRows.has(object.key)) continue;
      // A temporary leftover is discarded whole; a committed orphan is deleted.
      await (object.temporary ? storage.discard(object.key) : storage.delete(object.key));
      if (!object.temporary) committed.delete(object.key);
      removed.push(object);
    }
    batch = [];
  };

  for await (const object of storage.list()) {
    if (!object.temporary) committed.add(object.key);
    if (now - object.lastModified.getTime() < minAgeMs) continue;
    batch.push(object);
    if (batch.length >= batchSize) await removeOrphans();
  }
  if (batch.length > 0) await removeOrphans();

  const missing: string[] = [];
  for await (const key of options.rowKeys) {
    if (committed.has(key)) continue;
    // Not in the listing; look again, in case its upload committed since.
    if ((await storage.stat(key)) === undefined) missing.push(key);
  }
  return { removed, missing };
}

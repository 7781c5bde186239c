import type { Readable } from 'node:stream';

/**
 * Where attachment bytes live: a local folder or an S3 bucket. Rows live in the
 * database; this interface is shaped so that the two never disagree for long:
 *
 *   const upload = await storage.write(part, { maxBytes });   // temporary, invisible
 *   try {
 *     await db.transaction(async (tx) => {
 *       await tx.attachment.create({ data: { uuid: upload.key, size: upload.size, … } });
 *       await storage.commit(upload.key);                      // row first, then the object
 *     });
 *   } catch (error) {
 *     await storage.discard(upload.key);                       // nothing left behind
 *     throw error;
 *   }
 *
 *   delete: remove the row, then `storage.delete(key)`.
 *   sweep (sweep.ts): objects older than an hour without a row go; rows whose
 *   object is missing are reported.
 *
 * Keys are generated here (lowercase UUIDs, see object-key.ts) and never built
 * from anything a client sent; every method refuses any other string with
 * InvalidObjectKeyError, so no key can point outside the storage root.
 */
export interface Storage {
  /**
   * Streams `source` into a new temporary object under a fresh key and resolves
   * once the bytes are durable. Until `commit` only the caller knows the key
   * (disk: the object is not readable yet; S3: it is, see s3-storage.ts).
   * When `source` errors (a client that disconnects), or yields more
   * than `maxBytes` bytes (SizeLimitExceededError: `source` is destroyed at the
   * limit, not read to its end), the promise rejects and nothing is left behind.
   * Exactly `maxBytes` bytes, and zero bytes, are accepted.
   */
  write(source: Readable, options: WriteOptions): Promise<PendingObject>;

  /**
   * Makes a written object readable under its key, atomically: the whole
   * object or nothing. Call it after the row is inserted, inside the row's
   * transaction. Rejects with ObjectNotFoundError for a key never written;
   * committing twice is harmless.
   */
  commit(key: string): Promise<void>;

  /**
   * Removes everything `write` (and a `commit` whose transaction then failed)
   * left under the key, temporary or committed. Idempotent.
   */
  discard(key: string): Promise<void>;

  /**
   * Opens a committed object, all of it or one byte range. Rejects with
   * ObjectNotFoundError when there is no such object, RangeNotSatisfiableError
   * when `range.start` is not inside it (any range of an empty object). An
   * `end` past the last byte is clamped, as HTTP does. The caller must consume
   * or destroy `body`.
   */
  read(key: string, range?: ByteRange): Promise<ObjectReadStream>;

  /** Size and age of a committed object, or undefined when there is none. */
  stat(key: string): Promise<ObjectInfo | undefined>;

  /** Removes a committed object. Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;

  /**
   * Every object this storage holds, temporary and committed, with its age,
   * for the sweep. Anything in the root that is not laid out by this storage
   * is skipped (and never swept).
   */
  list(): AsyncIterable<StoredObject>;

  /** Releases connections (S3) or nothing (disk). */
  close(): Promise<void>;
}

export interface WriteOptions {
  /** Largest accepted size in bytes (inclusive). */
  maxBytes: number;
  /** Stored as the object's content type where the backend keeps one (S3). */
  contentType?: string;
}

/** A written but not yet committed upload. `key` is the attachment's UUID. */
export interface PendingObject {
  key: string;
  size: number;
}

/** Inclusive byte positions, as in an HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  /** Last byte position; the object's last byte when left out. */
  end?: number;
}

export interface ObjectInfo {
  size: number;
  lastModified: Date;
}

export interface ObjectReadStream {
  body: Readable;
  /** Size of the whole object, whatever range was asked for. */
  size: number;
  /**
   * The inclusive range `body` yields, `end - start + 1` bytes (the whole
   * object when no range was asked for; `{ start: 0, end: -1 }` when it is empty).
   */
  range: { start: number; end: number };
}

export interface StoredObject extends ObjectInfo {
  key: string;
  /** Written but never committed (disk only: on S3 an upload is invisible until it completes). */
  temporary: boolean;
}

/**
 * An upload larger than the limit. Carries the jshttp `status`/`expose` pair,
 * so @repo/http-errors answers it with 413 on its own.
 */
export class SizeLimitExceededError extends Error {
  override readonly name = 'SizeLimitExceededError';
  readonly status = 413;
  readonly expose = true;
  constructor(readonly limit: number) {
    super(`the file is larger than the limit of ${limit} bytes`);
  }
}

/** A range that starts at or past the end of the object (HTTP 416). */
export class RangeNotSatisfiableError extends Error {
  override readonly name = 'RangeNotSatisfiableError';
  readonly status = 416;
  readonly expose = true;
  constructor(readonly size: number) {
    super(`the requested range is not satisfiable (the object has ${size} bytes)`);
  }
}

/** No committed object under the key: for a key taken from a row, a lost file (500, not 404). */
export class ObjectNotFoundError extends Error {
  override readonly name = 'ObjectNotFoundError';
  constructor(readonly key: string) {
    super(`no stored object under key ${key}`);
  }
}

/** A key this storage did not generate: refused before it reaches a path or a bucket. */
export class InvalidObjectKeyError extends Error {
  override readonly name = 'InvalidObjectKeyError';
  constructor() {
    // The key itself stays out of the message: it may come from anywhere.
    super('invalid storage key: expected a lowercase UUID');
  }
}

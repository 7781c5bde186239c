import { badRequest, createHttpError, isHttpError, type HttpError } from '@repo/http-errors';
import type { Request, Response } from 'express';
import multer, { type StorageEngine } from 'multer';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { WrittenObject } from '../domain/attachments';
import { SizeLimitExceededError, type Storage } from '../storage/storage';
import { countingStream } from './attachment-metrics';
import { sniffContentType, SNIFF_BYTES } from './content-sniffing';

export interface AttachmentUploadOptions {
  storage: Storage;
  /** Largest accepted file, in bytes (inclusive). */
  maxBytes: number;
  /** Throws (422) when the file may not be attached, from its name and its sniffed type. */
  checkFile(fileName: string, sniffedType: string): void;
}

/** What the engine hands multer for the `attachment` part (multer adds the part's own fields). */
type StoredPart = Omit<WrittenObject, 'fileName'> & { path: string };

/**
 * Reads the first `bytes` bytes of `stream` (fewer when it is shorter) without losing them:
 * `body` yields the whole stream from its first byte. It is `stream` itself with the head put
 * back, or, when reading the head reached the end, a stream of the head alone.
 */
async function peek(stream: Readable, bytes: number): Promise<{ head: Buffer; body: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  const onEnd = () => (ended = true);
  stream.once('end', onEnd);
  try {
    while (length < bytes && !ended) {
      const chunk = stream.read() as Buffer | null;
      if (chunk !== null) {
        chunks.push(chunk);
        length += chunk.length;
        continue;
      }
      // Resolves on more data or on the end, and rejects on the stream's error.
      const waited = new AbortController();
      try {
        await Promise.race([
          once(stream, 'readable', { signal: waited.signal }),
          once(stream, 'end', { signal: waited.signal }),
        ]);
      } finally {
        waited.abort();
      }
    }
  } finally {
    stream.off('end', onEnd);
  }
  const read = Buffer.concat(chunks);
  const head = read.subarray(0, bytes);
  if (ended) return { head, body: Readable.from(read.length > 0 ? [read] : []) };
  if (read.length > 0) stream.unshift(read);
  return { head, body: stream };
}

/**
 * The part, sniffed and checked, then streamed to the storage: never whole in memory and never
 * copied elsewhere first. A refused type is refused after its first bytes, an oversized file at
 * the limit; in both cases nothing is stored.
 */
async function storePart(file: Express.Multer.File, options: AttachmentUploadOptions): Promise<StoredPart> {
  const peeked = await peek(file.stream, Math.min(SNIFF_BYTES, options.maxBytes + 1));
  const { head } = peeked;
  // Counted as received, so an upload cut short counts what arrived. A consumer that gives up
  // (the size limit) destroys `body`, and the pipeline then stops the part too.
  const body = countingStream('in');
  pipeline(peeked.body, body).catch(() => undefined);
  try {
    if (head.length > options.maxBytes) throw new SizeLimitExceededError(options.maxBytes);
    const contentType = await sniffContentType(head);
    options.checkFile(file.originalname, contentType);
    const written = await options.storage.write(body, { maxBytes: options.maxBytes, contentType });
    return { key: written.key, size: written.size, contentType, path: written.key };
  } finally {
    body.destroy();
  }
}

/**
 * Refusals found in the body itself (too large, forbidden type) are answered at once, with the
 * connection closed after the answer: the rest of the upload is never read.
 */
function cutsUpload(error: unknown): HttpError | undefined {
  const headers = { Connection: 'close' };
  if (error instanceof SizeLimitExceededError)
    return createHttpError(413, error.message, { headers, cause: error });
  if (isHttpError(error) && error.status === 422)
    return createHttpError(422, error.message, { headers, cause: error });
  return undefined;
}

/**
 * Receives the multipart part `attachment` through multer with a storage engine that writes it
 * to the attachment storage. Resolves with the written (not yet committed) object, or undefined
 * when the request has no such part; the caller commits it with its row or discards it.
 */
export function receiveAttachment(
  req: Request,
  res: Response,
  options: AttachmentUploadOptions,
): Promise<(WrittenObject & { path: string }) | undefined> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: unknown, file?: WrittenObject & { path: string }) => {
      if (settled) return;
      settled = true;
      if (error === undefined) resolve(file);
      else reject(error);
    };
    const engine: StorageEngine = {
      _handleFile(_req, file, callback) {
        storePart(file, options).then(
          (stored) => callback(null, stored),
          (error: unknown) => {
            // Answer now; multer would first read the rest of the body (to spare the client an EPIPE).
            const cut = cutsUpload(error);
            if (cut) settle(cut);
            callback(error as Error);
          },
        );
      },
      _removeFile(_req, file, callback) {
        const key = (file as Partial<StoredPart>).key;
        if (key === undefined) return callback(null);
        options.storage.discard(key).then(() => callback(null), callback);
      },
    };
    const upload = multer({
      storage: engine,
      // Non-ASCII file names arrive as UTF-8 (busboy's default would read them as Latin-1).
      defParamCharset: 'utf8',
      limits: { files: 1, fields: 16, fieldSize: 64 * 1024, parts: 32 },
    }).single('attachment');
    upload(req, res, (error?: unknown) => {
      if (error === undefined) {
        const file = req.file as (Express.Multer.File & StoredPart) | undefined;
        settle(
          undefined,
          file && {
            key: file.key,
            size: file.size,
            contentType: file.contentType,
            fileName: file.originalname,
            path: file.path,
          },
        );
        return;
      }
      // A client that went away mid-upload: nobody reads the answer, but the log should not say 500.
      if (req.destroyed && !req.complete) settle(badRequest('the upload was interrupted', { cause: error }));
      else settle(error);
    });
  });
}

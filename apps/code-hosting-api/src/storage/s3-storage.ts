import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { checkRange, resolveRange } from './byte-range';
import { committedPath, parseObjectPath } from './object-key';
import { writeNewObject } from './object-writer';
import {
  ObjectNotFoundError,
  RangeNotSatisfiableError,
  type ByteRange,
  type ObjectInfo,
  type ObjectReadStream,
  type PendingObject,
  type Storage,
  type StoredObject,
  type WriteOptions,
} from './storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Any S3 API (MinIO, Ceph, s3rver); AWS's own when left out. */
  endpoint?: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
  /** The SDK's default chain (environment, web identity, instance role) when left out. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Folder of the bucket the objects go to; Gitea's default. */
  prefix?: string;
  /** Multipart part size (S3's minimum, 5 MiB, by default) and parts in flight: memory is about their product. */
  partSize?: number;
  queueSize?: number;
}

const MIN_PART_SIZE = 5 * 1024 * 1024;

/**
 * Attachments in an S3 bucket, shared by every replica, under
 * `attachments/a/b/ab…` (Gitea's layout).
 *
 * There is no temporary key on S3: an upload goes straight to its final key,
 * because S3 already makes that atomic and free. A multipart upload (or a
 * single PUT, for a file under one part) stays invisible until
 * CompleteMultipartUpload publishes the whole object in one step; a failed or
 * aborted one is aborted and never appears. "Temporary → committed" by
 * CopyObject + DeleteObject would instead copy every byte again inside S3
 * (server-side, billed, and limited to 5 GiB per copy) and still be two
 * requests, not one atomic step. So `commit` only checks the object is there,
 * and the window between a completed upload and its committed row is covered
 * as for disk: `discard` on failure, the sweep after a crash (a key nobody has
 * a row for is unreachable, since keys are fresh UUIDs only the row knows).
 *
 * Leftover parts of uploads aborted by a crash are not objects and never
 * listed: give the bucket a lifecycle rule AbortIncompleteMultipartUpload
 * (one day) to reclaim them.
 */
export class S3Storage implements Storage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Checksums only where S3 requires them: the newer default (CRC32 on
      // every upload, aws-chunked trailers on streams) is refused by several
      // S3-compatible servers. SigV4 and TLS still protect every request.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? 'attachments/';
    this.partSize = Math.max(options.partSize ?? MIN_PART_SIZE, MIN_PART_SIZE);
    // One part in flight: lib-storage holds a part's chunks and their concatenation while it
    // sends, and with two in flight the server's RSS grew 36-49 MiB on a 200 MiB upload, for no
    // gain in throughput (the S3 server was the limit).
    this.queueSize = options.queueSize ?? 1;
  }

  write(source: Readable, options: WriteOptions): Promise<PendingObject> {
    return writeNewObject(source, options, {
      store: async (key, body, { contentType }) => {
        const upload = new Upload({
          client: this.client,
          params: { Bucket: this.bucket, Key: this.objectKey(key), Body: body, ContentType: contentType },
          partSize: this.partSize,
          queueSize: this.queueSize,
        });
        await upload.done();
      },
      discard: (key) => this.delete(key),
    });
  }

  async commit(key: string): Promise<void> {
    if ((await this.stat(key)) === undefined) throw new ObjectNotFoundError(key);
  }

  discard(key: string): Promise<void> {
    return this.delete(key);
  }

  async read(key: string, range?: ByteRange): Promise<ObjectReadStream> {
    if (range !== undefined) checkRange(range);
    let response;
    try {
      response = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Range: range === undefined ? undefined : `bytes=${range.start}-${range.end ?? ''}`,
        }),
      );
    } catch (error) {
      if (hasStatus(error, 404)) throw new ObjectNotFoundError(key);
      if (hasStatus(error, 416)) throw new RangeNotSatisfiableError((await this.stat(key))?.size ?? 0);
      throw error;
    }
    const body = response.Body;
    if (!(body instanceof Readable)) throw new Error('S3 GetObject answered without a Node.js stream');
    try {
      if (range !== undefined && response.ContentRange === undefined) {
        // A zero-byte object, or a server that ignores Range and sends it all.
        if (response.ContentLength === 0) throw new RangeNotSatisfiableError(0);
        throw new Error('S3 GetObject ignored the Range header');
      }
      const size = totalSize(response.ContentRange) ?? response.ContentLength ?? 0;
      return { body, size, range: resolveRange(size, range) };
    } catch (error) {
      body.destroy();
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return { size: head.ContentLength ?? 0, lastModified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (hasStatus(error, 404)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a key that is not there: idempotent by itself.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async *list(): AsyncIterable<StoredObject> {
    const pages = paginateListObjectsV2(
      { client: this.client },
      { Bucket: this.bucket, Prefix: this.prefix },
    );
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        const parsed = object.Key?.startsWith(this.prefix)
          ? parseObjectPath(object.Key.slice(this.prefix.length))
          : undefined;
        if (parsed === undefined) continue;
        yield { ...parsed, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) };
      }
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    return this.prefix + committedPath(key);
  }
}

function hasStatus(error: unknown, status: number): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === status;
}

/** The total of a `Content-Range: bytes 0-99/1234` header. */
function totalSize(contentRange: string | undefined): number | undefined {
  const total = contentRange?.match(/\/(\d+)$/)?.[1];
  return total === undefined ? undefined : Number(total);
}

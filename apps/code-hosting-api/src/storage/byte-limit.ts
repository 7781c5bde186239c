import { Transform, type TransformCallback } from 'node:stream';
import { SizeLimitExceededError } from './storage';

/**
 * Counts the bytes flowing through and fails with SizeLimitExceededError on the
 * first chunk that goes past `maxBytes`. In a pipeline that error destroys the
 * source, so an oversized upload is cut at the limit rather than read to its
 * end. `bytes` is the size of what passed once the stream has ended.
 */
export class ByteLimit extends Transform {
  bytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(new SizeLimitExceededError(this.maxBytes));
      return;
    }
    callback(null, chunk);
  }
}

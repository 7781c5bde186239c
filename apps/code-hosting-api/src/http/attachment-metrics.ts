import { Transform, type TransformCallback } from 'node:stream';
import { Counter } from 'prom-client';
import { registry } from '../metrics/registry';

/**
 * Attachment bytes through the service: `in` as uploads are received (counted as they stream,
 * so an upload cut short counts what arrived), `out` as downloads are sent.
 */
export const attachmentBytes = new Counter({
  name: 'code_hosting_api_attachment_bytes_total',
  help: 'Attachment bytes received from uploads (direction="in") and sent in downloads (direction="out")',
  labelNames: ['direction'] as const,
  registers: [registry],
});

export type AttachmentDirection = 'in' | 'out';

/** Adds `bytes` to the counter of one direction. */
export function countAttachmentBytes(direction: AttachmentDirection, bytes: number): void {
  if (bytes > 0) attachmentBytes.inc({ direction }, bytes);
}

/** A pass-through stream that counts what flows through it: `source.pipe(countingStream('in')).pipe(sink)`. */
export function countingStream(direction: AttachmentDirection): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      countAttachmentBytes(direction, chunk.length);
      done(null, chunk);
    },
  });
}

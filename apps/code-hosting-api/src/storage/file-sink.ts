import fs from 'node:fs/promises';
import { Writable } from 'node:stream';

/** Bytes written between two background flushes to the disk. */
const FLUSH_EVERY_BYTES = 8 * 1024 * 1024;

/**
 * A stream into a file the caller has just created (exclusively, never overwriting), durable
 * once the stream has finished: `finish` comes after fsync. The caller opens the file before
 * the stream exists, so a write that fails at once (the size limit passed by the first chunk)
 * cannot create the file after its cleanup has run: a pipeline rejects as soon as its source
 * fails, without waiting for a sink still opening its file. Two things keep it fast on large files:
 * queued chunks go down in one writev, and every FLUSH_EVERY_BYTES an fdatasync runs in the
 * background while writing goes on, so the disk writes as the data arrives and the fsync at
 * the end only has the last few megabytes left.
 */
export class FileSink extends Writable {
  private handle: fs.FileHandle | undefined;
  private unflushed = 0;
  private flushing: Promise<void> | undefined;

  /** Creates `file` (it must not exist) and returns the stream that writes it. */
  static async create(file: string, mode: number): Promise<FileSink> {
    return new FileSink(await fs.open(file, 'wx', mode));
  }

  private constructor(handle: fs.FileHandle) {
    super({ highWaterMark: 1024 * 1024 });
    this.handle = handle;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeAll([chunk]).then(() => callback(), callback);
  }

  override _writev(
    chunks: Array<{ chunk: Buffer; encoding: BufferEncoding }>,
    callback: (error?: Error | null) => void,
  ): void {
    this.writeAll(chunks.map(({ chunk }) => chunk)).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.settleFlush()
      .then(() => this.handle!.sync())
      .then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    // The background flush must be done with the descriptor before it is closed.
    this.settleFlush()
      .catch(() => undefined)
      .then(() => handle?.close())
      .then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
  }

  private async writeAll(buffers: Buffer[]): Promise<void> {
    const handle = this.handle!;
    let length = 0;
    for (const buffer of buffers) length += buffer.length;
    // writev may write less than asked (a full disk, a signal): go on from where it stopped.
    let written = (await handle.writev(buffers)).bytesWritten;
    while (written < length) {
      const rest = Buffer.concat(buffers).subarray(written);
      written += (await handle.write(rest)).bytesWritten;
    }
    this.unflushed += length;
    if (this.unflushed >= FLUSH_EVERY_BYTES && this.flushing === undefined) {
      this.unflushed = 0;
      this.flushing = handle.datasync().finally(() => (this.flushing = undefined));
      // Its failure is reported by _final's wait for it (and fsync fails too).
      this.flushing.catch(() => undefined);
    }
  }

  private async settleFlush(): Promise<void> {
    await this.flushing;
  }
}

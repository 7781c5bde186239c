import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Storage, StoredObject } from '../src/storage/storage';

export const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A source of `total` bytes made on demand, counting what it has produced (one buffer reused: no garbage). */
export function generatedSource(total: number, options: { failAfter?: number } = {}) {
  const chunk = randomBytes(CHUNK);
  const source = {
    produced: 0,
    stream: new Readable({
      read() {
        if (options.failAfter !== undefined && source.produced >= options.failAfter) {
          this.destroy(new Error('client went away'));
          return;
        }
        const size = Math.min(CHUNK, total - source.produced);
        if (size <= 0) {
          this.push(null);
          return;
        }
        source.produced += size;
        this.push(chunk.subarray(0, size));
      },
    }),
  };
  return source;
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function listAll(storage: Storage): Promise<StoredObject[]> {
  const objects: StoredObject[] = [];
  for await (const object of storage.list()) objects.push(object);
  return objects;
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function writeCommitted(storage: Storage, data: Buffer): Promise<string> {
  const { key } = await storage.write(Readable.from([data]), { maxBytes: data.length });
  await storage.commit(key);
  return key;
}

/** Peak RSS growth over a baseline, sampled while `work` runs. */
export async function peakRssGrowth(work: () => Promise<unknown>): Promise<number> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - baseline;
}

/** Measurements the storage tests print when STORAGE_MEASURES is set. */
export function reportMeasure(line: string): void {
  if (process.env.STORAGE_MEASURES) process.stderr.write(`${line}\n`);
}

// A suite shared by the backends' test files (storage-disk, storage-s3): its
// one export is the point of the file.
/* eslint-disable jest/no-export */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  InvalidObjectKeyError,
  ObjectNotFoundError,
  RangeNotSatisfiableError,
  SizeLimitExceededError,
  type Storage,
} from '../src/storage/storage';
import { sweepAttachments, SWEEP_MIN_AGE_MS } from '../src/storage/sweep';
import {
  generatedSource,
  listAll,
  MiB,
  peakRssGrowth,
  readAll,
  reportMeasure,
  sha256,
  writeCommitted,
} from './storage-streams';

/**
 * The Storage contract, run against each backend. `newStorage` gives each test
 * an empty storage of its own (a fresh folder, a fresh bucket prefix).
 */
export function describeStorageContract(name: string, newStorage: () => Promise<Storage>): void {
  describe(`${name}: the Storage contract`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await newStorage();
    });
    afterEach(async () => {
      await storage.close();
    });

    it('reads back the committed bytes, identical, with their size', async () => {
      // Over 5 MiB: several parts of a multipart upload on S3.
      const data = randomBytes(12 * MiB + 123);
      const upload = await storage.write(Readable.from([data.subarray(0, 5 * MiB), data.subarray(5 * MiB)]), {
        maxBytes: 100 * MiB,
      });
      expect(upload.size).toBe(data.length);
      await storage.commit(upload.key);

      const read = await storage.read(upload.key);
      expect(read.size).toBe(data.length);
      expect(read.range).toEqual({ start: 0, end: data.length - 1 });
      expect(sha256(await readAll(read.body))).toBe(sha256(data));
      const info = await storage.stat(upload.key);
      expect(info?.size).toBe(data.length);
      expect(Math.abs(Date.now() - (info?.lastModified.getTime() ?? 0))).toBeLessThan(60_000);
      expect((await listAll(storage)).map((object) => [object.key, object.temporary, object.size])).toEqual([
        [upload.key, false, data.length],
      ]);
    });

    it('generates a fresh UUID key for every upload', async () => {
      const first = await storage.write(Readable.from([Buffer.from('a')]), { maxBytes: 10 });
      const second = await storage.write(Readable.from([Buffer.from('a')]), { maxBytes: 10 });
      expect(first.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(second.key).not.toBe(first.key);
    });

    it('serves a byte range, clamping an end past the last byte', async () => {
      const data = randomBytes(1000);
      const key = await writeCommitted(storage, data);

      const middle = await storage.read(key, { start: 100, end: 199 });
      expect(middle.size).toBe(1000);
      expect(middle.range).toEqual({ start: 100, end: 199 });
      expect(await readAll(middle.body)).toEqual(data.subarray(100, 200));

      const tail = await storage.read(key, { start: 990 });
      expect(tail.range).toEqual({ start: 990, end: 999 });
      expect(await readAll(tail.body)).toEqual(data.subarray(990));

      const clamped = await storage.read(key, { start: 998, end: 5000 });
      expect(clamped.range).toEqual({ start: 998, end: 999 });
      expect(await readAll(clamped.body)).toEqual(data.subarray(998));
    });

    it('refuses a range that starts past the end as not satisfiable (416)', async () => {
      const key = await writeCommitted(storage, randomBytes(10));
      const refusal = storage.read(key, { start: 10 });
      await expect(refusal).rejects.toBeInstanceOf(RangeNotSatisfiableError);
      await expect(refusal).rejects.toMatchObject({ status: 416, size: 10 });
    });

    it('stores an empty file (size 0) and reads it back empty', async () => {
      const upload = await storage.write(Readable.from([]), { maxBytes: 100 });
      expect(upload.size).toBe(0);
      await storage.commit(upload.key);

      const read = await storage.read(upload.key);
      expect(read.size).toBe(0);
      expect(read.range).toEqual({ start: 0, end: -1 });
      expect(await readAll(read.body)).toHaveLength(0);
      await expect(storage.read(upload.key, { start: 0 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    });

    it('accepts a file of exactly the limit', async () => {
      const source = generatedSource(MiB);
      const upload = await storage.write(source.stream, { maxBytes: MiB });
      expect(upload.size).toBe(MiB);
    });

    it.each([
      ['one part', MiB],
      ['a multipart upload under way', 7 * MiB],
    ])('cuts a stream over the limit at the limit and leaves nothing (%s)', async (_case, limit) => {
      // The source could go on for 64 MiB; only the limit and a little buffering may be read.
      const source = generatedSource(64 * MiB);
      const refusal = storage.write(source.stream, { maxBytes: limit });
      await expect(refusal).rejects.toBeInstanceOf(SizeLimitExceededError);
      await expect(refusal).rejects.toMatchObject({ status: 413, expose: true, limit });
      expect(source.produced).toBeGreaterThan(limit);
      expect(source.produced).toBeLessThan(limit + MiB);
      expect(source.stream.destroyed).toBe(true);
      expect(await listAll(storage)).toEqual([]);
      reportMeasure(`${name}: limit ${limit} B, source produced ${source.produced} B before the cut`);
    });

    it('leaves nothing when the limit is passed before the backend has opened its object', async () => {
      // The first chunk is already over the limit: the refusal comes while the backend is
      // still preparing (a folder, a file, an upload), and whatever it creates must still go.
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const refusal = storage.write(Readable.from([Buffer.alloc(64)]), { maxBytes: 1 });
        await expect(refusal).rejects.toBeInstanceOf(SizeLimitExceededError);
      }
      expect(await listAll(storage)).toEqual([]);
    });

    it('leaves nothing when the source fails mid-way (a client that disconnects)', async () => {
      const source = generatedSource(20 * MiB, { failAfter: 6 * MiB });
      await expect(storage.write(source.stream, { maxBytes: 100 * MiB })).rejects.toThrow('client went away');
      expect(await listAll(storage)).toEqual([]);
    });

    it('leaves nothing when a written upload is discarded (its row failed), before or after commit', async () => {
      const before = await storage.write(Readable.from([Buffer.from('one')]), { maxBytes: 10 });
      const after = await storage.write(Readable.from([Buffer.from('two')]), { maxBytes: 10 });
      await storage.commit(after.key);

      await storage.discard(before.key);
      await storage.discard(after.key);
      await storage.discard(after.key);

      expect(await listAll(storage)).toEqual([]);
      await expect(storage.read(after.key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('commits idempotently, and refuses to commit a key never written', async () => {
      const upload = await storage.write(Readable.from([Buffer.from('x')]), { maxBytes: 10 });
      await storage.commit(upload.key);
      await storage.commit(upload.key);
      expect(await storage.stat(upload.key)).toMatchObject({ size: 1 });
      await expect(storage.commit('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
        ObjectNotFoundError,
      );
    });

    it('deletes idempotently and leaves the neighbour', async () => {
      const doomed = await writeCommitted(storage, Buffer.from('doomed'));
      const neighbour = await writeCommitted(storage, Buffer.from('neighbour'));

      await storage.delete(doomed);
      await storage.delete(doomed);
      await storage.delete('00000000-0000-4000-8000-000000000000');

      await expect(storage.read(doomed)).rejects.toBeInstanceOf(ObjectNotFoundError);
      expect(await storage.stat(doomed)).toBeUndefined();
      expect(await readAll((await storage.read(neighbour)).body)).toEqual(Buffer.from('neighbour'));
    });

    it.each([
      '../x',
      '../../etc/passwd',
      '/etc/passwd',
      'a/../../x',
      '',
      '.',
      'ABCDEF00-0000-4000-8000-000000000000',
    ])('refuses the key %j on every operation', async (key) => {
      await expect(storage.read(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.stat(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.commit(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.discard(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    });

    it('sweeps old objects without a row, keeps young ones and those with a row, and reports rows without an object', async () => {
      const oldWithRow = await writeCommitted(storage, Buffer.from('kept: it has a row'));
      const oldOrphan = await writeCommitted(storage, Buffer.from('swept: no row'));
      const oldUncommitted = (
        await storage.write(Readable.from([Buffer.from('swept: never committed')]), { maxBytes: 100 })
      ).key;
      // S3 keeps LastModified to the second: a clear line between old and young.
      await sleep(1100);
      const line = Date.now();
      await sleep(1100);
      const youngOrphan = await writeCommitted(storage, Buffer.from('kept: may be on its way to a row'));
      const lostFile = '00000000-0000-4000-8000-000000000000';
      const rows = new Set([oldWithRow, lostFile]);
      const asked: string[] = [];

      const report = await sweepAttachments(storage, {
        // As if an hour had passed since the line.
        now: new Date(line + SWEEP_MIN_AGE_MS),
        keysWithRows: async (keys) => {
          asked.push(...keys);
          return keys.filter((key) => rows.has(key));
        },
        rowKeys: rows,
      });

      expect(report.removed.map((object) => object.key).sort()).toEqual([oldOrphan, oldUncommitted].sort());
      expect(report.missing).toEqual([lostFile]);
      expect(asked).not.toContain(youngOrphan);
      expect((await listAll(storage)).map((object) => object.key).sort()).toEqual(
        [oldWithRow, youngOrphan].sort(),
      );
    });

    it('streams 50 MiB through with little memory', async () => {
      const total = 50 * MiB;
      const source = generatedSource(total);
      let size = 0;
      const growth = await peakRssGrowth(async () => {
        ({ size } = await storage.write(source.stream, { maxBytes: 100 * MiB }));
      });
      expect(size).toBe(total);
      reportMeasure(`${name}: 50 MiB write, peak RSS growth ${(growth / MiB).toFixed(1)} MiB`);
      expect(growth).toBeLessThan(32 * MiB);
    });
  });
}

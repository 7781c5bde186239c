import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DiskStorage } from '../src/storage/disk-storage';
import { InvalidObjectKeyError } from '../src/storage/storage';
import { describeStorageContract } from './storage-contract';
import { generatedSource, listAll } from './storage-streams';

const roots: string[] = [];

async function newRoot(): Promise<string> {
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'disk-storage-'));
  roots.push(parent);
  return path.join(parent, 'attachments');
}

afterAll(async () => {
  await Promise.all(roots.map((root) => fs.rm(root, { recursive: true, force: true })));
});

describeStorageContract('disk', async () => new DiskStorage(await newRoot()));

describe('disk storage layout', () => {
  it('writes under tmp/ in the root and commits by a rename into Gitea’s a/b/uuid layout', async () => {
    const root = await newRoot();
    const storage = new DiskStorage(root);
    const { key } = await storage.write(Readable.from([Buffer.from('hello')]), { maxBytes: 10 });
    expect(await fs.readdir(path.join(root, 'tmp'))).toEqual([key]);
    expect(await listAll(storage)).toEqual([expect.objectContaining({ key, temporary: true, size: 5 })]);
    const { ino } = await fs.stat(path.join(root, 'tmp', key));

    await storage.commit(key);

    expect(await fs.readdir(path.join(root, 'tmp'))).toEqual([]);
    const committed = await fs.stat(path.join(root, key[0] as string, key[1] as string, key));
    expect(committed.ino).toBe(ino); // the same file, renamed: no copy
    expect(await listAll(storage)).toEqual([expect.objectContaining({ key, temporary: false })]);
  });

  it('removes its temporary file when the source fails', async () => {
    const root = await newRoot();
    const storage = new DiskStorage(root);
    const source = generatedSource(4 * 1024 * 1024, { failAfter: 1024 * 1024 });
    await expect(storage.write(source.stream, { maxBytes: 10 * 1024 * 1024 })).rejects.toThrow(
      'client went away',
    );
    expect(await fs.readdir(path.join(root, 'tmp'))).toEqual([]);
  });

  it('never touches a file outside the root, whatever the key', async () => {
    const root = await newRoot();
    const outside = path.join(path.dirname(root), 'victim');
    await fs.writeFile(outside, 'keep me');
    const storage = new DiskStorage(root);
    await expect(storage.delete('../victim')).rejects.toBeInstanceOf(InvalidObjectKeyError);
    await expect(storage.discard(outside)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    expect(await fs.readFile(outside, 'utf8')).toBe('keep me');
  });

  it('lists and sweeps only what its layout names, never a stranger’s file in the root', async () => {
    const root = await newRoot();
    await fs.mkdir(path.join(root, 'a', 'b'), { recursive: true });
    await fs.writeFile(path.join(root, 'README'), 'not an attachment');
    await fs.writeFile(path.join(root, 'a', 'b', 'not-a-uuid'), 'not an attachment');
    // A UUID in the wrong fan-out folder is not one of ours either.
    await fs.writeFile(path.join(root, 'a', 'b', '00000000-0000-4000-8000-000000000000'), 'misplaced');
    expect(await listAll(new DiskStorage(root))).toEqual([]);
  });
});

import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resolveRange } from './byte-range';
import { FileSink } from './file-sink';
import { committedPath, parseObjectPath, temporaryPath, TEMPORARY_FOLDER } from './object-key';
import { writeNewObject } from './object-writer';
import {
  ObjectNotFoundError,
  type ByteRange,
  type ObjectInfo,
  type ObjectReadStream,
  type PendingObject,
  type Storage,
  type StoredObject,
  type WriteOptions,
} from './storage';

/**
 * Attachments in a local folder (DATA_DIR/attachments), Gitea's layout:
 * `a/b/ab…` committed, `tmp/<key>` written but not committed. The temporary
 * folder is inside the root, so it is on the same filesystem and commit is one
 * rename(2): atomic, and no byte is copied. Files are fsynced before the
 * rename, and the folder after it, so a commit that returned survives a crash.
 */
export class DiskStorage implements Storage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  write(source: Readable, options: WriteOptions): Promise<PendingObject> {
    return writeNewObject(source, options, {
      store: async (key, body) => {
        const file = this.resolve(temporaryPath(key));
        await fs.mkdir(path.dirname(file), { recursive: true });
        // A fresh key never meets an existing file; the sink has fsynced when the pipeline ends.
        // The file exists before the pipeline starts, so a failure can only happen after it:
        // discard, which runs once this rejects, always finds it.
        await pipeline(body, await FileSink.create(file, 0o640));
      },
      discard: (key) => this.discard(key),
    });
  }

  async commit(key: string): Promise<void> {
    const from = this.resolve(temporaryPath(key));
    const to = this.resolve(committedPath(key));
    await fs.mkdir(path.dirname(to), { recursive: true });
    try {
      await fs.rename(from, to);
    } catch (error) {
      if (!isMissing(error)) throw error;
      // Committed already (a retry), or never written.
      if ((await this.stat(key)) === undefined) throw new ObjectNotFoundError(key);
      return;
    }
    await fsyncFolder(path.dirname(to));
  }

  async discard(key: string): Promise<void> {
    await removeFile(this.resolve(temporaryPath(key)));
    await removeFile(this.resolve(committedPath(key)));
  }

  async read(key: string, range?: ByteRange): Promise<ObjectReadStream> {
    let file: fs.FileHandle;
    try {
      file = await fs.open(this.resolve(committedPath(key)), 'r');
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
    try {
      // The size of the file opened, not of whatever the path names a moment later.
      const { size } = await file.stat();
      const served = resolveRange(size, range);
      // createReadStream refuses end < start, the whole-range of an empty file.
      const body = file.createReadStream(size === 0 ? {} : served);
      return { body, size, range: served };
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | undefined> {
    try {
      const stats = await fs.stat(this.resolve(committedPath(key)));
      return { size: stats.size, lastModified: stats.mtime };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await removeFile(this.resolve(committedPath(key)));
  }

  async *list(): AsyncIterable<StoredObject> {
    for await (const relative of listFiles(this.root)) {
      const parsed = parseObjectPath(relative);
      if (parsed === undefined) continue;
      try {
        const stats = await fs.stat(this.resolve(relative));
        yield { ...parsed, size: stats.size, lastModified: stats.mtime };
      } catch (error) {
        if (!isMissing(error)) throw error; // committed or removed meanwhile
      }
    }
  }

  async close(): Promise<void> {}

  /** An absolute path for a relative one built from a checked key; a second guard against escaping the root. */
  private resolve(relative: string): string {
    const absolute = path.resolve(this.root, relative);
    if (!absolute.startsWith(this.root + path.sep)) throw new Error('storage path outside the root');
    return absolute;
  }
}

/** Files below `root` where the layout puts objects (`tmp/x`, `a/b/x`), as '/'-separated relative paths. */
async function* listFiles(root: string, relative = '', depth = 0): AsyncGenerator<string> {
  let folder;
  try {
    folder = await fs.opendir(path.join(root, relative));
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for await (const entry of folder) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isFile()) yield child;
    else if (
      entry.isDirectory() &&
      depth < 2 &&
      (depth > 0 || entry.name.length === 1 || entry.name === TEMPORARY_FOLDER)
    ) {
      yield* listFiles(root, child, depth + 1);
    }
  }
}

async function removeFile(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

async function fsyncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { blobRelativePath, isBlobName, sha256Hex, type BlobStore, type StoredBlob } from './blob-store';

/** The temporary `put` writes beside a blob before renaming it into place: `<sha256>.<uuid>.tmp`. */
const TEMPORARY = /^[0-9a-f]{64}\.[0-9a-f-]{36}\.tmp$/;

/**
 * Blobs as files under one folder (`<root>/sha256/ab/abcdef…`). A blob is written to a unique temporary name in its
 * fan-out directory and renamed into place, so a reader never sees a partial blob and two writers of the same bytes
 * both succeed. Its mtime is when it was stored, which garbage collection reads.
 */
export class FsBlobStore implements BlobStore {
  readonly description: string;
  private readonly base: string;

  constructor(root: string) {
    this.base = path.join(path.resolve(root), 'sha256');
    this.description = `folder ${path.resolve(root)}`;
  }

  private fileOf(sha256: string): string {
    return path.join(this.base, blobRelativePath(sha256));
  }

  async has(sha256: string): Promise<boolean> {
    const file = this.fileOf(sha256);
    try {
      await fs.access(file);
      return true;
    } catch {
      return false;
    }
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256 = sha256Hex(bytes);
    const file = this.fileOf(sha256);
    if (await this.has(sha256)) return sha256;
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${crypto.randomUUID()}.tmp`;
    try {
      await fs.writeFile(temporary, bytes, { flag: 'wx' });
      await fs.rename(temporary, file);
    } finally {
      await fs.rm(temporary, { force: true });
    }
    return sha256;
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.fileOf(sha256));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async *list(): AsyncIterable<StoredBlob> {
    for await (const { dir, name } of this.names()) {
      // Temporary files of writes in flight (or of writers that died) are not blobs.
      if (!isBlobName(name)) continue;
      const stat = await fs.stat(path.join(this.base, dir, name)).catch(() => undefined);
      if (stat) yield { sha256: name, sizeBytes: stat.size, storedAt: stat.mtime };
    }
  }

  /**
   * A write in flight is seconds old, so a temporary older than `storedBefore` (garbage collection's retention, at
   * least an hour) is one whose writer died before renaming it: its blob was either stored by a retry under its own
   * temporary, or is not needed. Nothing reads temporaries, so deleting one never loses a blob.
   */
  async deleteStaleTemporaries(storedBefore: Date): Promise<number> {
    let deleted = 0;
    for await (const { dir, name } of this.names()) {
      if (!TEMPORARY.test(name)) continue;
      const file = path.join(this.base, dir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat || stat.mtime.getTime() >= storedBefore.getTime()) continue;
      await fs.rm(file, { force: true });
      deleted += 1;
    }
    return deleted;
  }

  /** Every name in the fan-out directories (blobs and temporaries alike), tolerating a folder not made yet. */
  private async *names(): AsyncIterable<{ dir: string; name: string }> {
    let fanOut: string[];
    try {
      fanOut = await fs.readdir(this.base);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const dir of fanOut) {
      let names: string[];
      try {
        names = await fs.readdir(path.join(this.base, dir));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
          continue;
        throw err;
      }
      for (const name of names) yield { dir, name };
    }
  }

  async delete(sha256: string): Promise<void> {
    await fs.rm(this.fileOf(sha256), { force: true });
  }
}

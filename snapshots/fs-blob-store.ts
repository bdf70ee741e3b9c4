import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { blobRelativePath, isBlobName, sha256Hex, type BlobStore, type StoredBlob } from './blob-store';

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
      for (const name of names) {
        // Temporary files of writes in flight (or of writers that died) are not blobs.
        if (!isBlobName(name)) continue;
        const stat = await fs.stat(path.join(this.base, dir, name)).catch(() => undefined);
        if (stat) yield { sha256: name, sizeBytes: stat.size, storedAt: stat.mtime };
      }
    }
  }

  async delete(sha256: string): Promise<void> {
    await fs.rm(this.fileOf(sha256), { force: true });
  }
}

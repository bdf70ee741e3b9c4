/**
 * Writing whole files into a job's workspace for the product-build steps (scaffold, design). Atomic per file
 * (temporary name, then rename) and idempotent: writing the same bytes again changes nothing, so an activity retry is
 * harmless.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface WrittenFile {
  path: string;
  sha256: string;
  size_bytes: number;
}

/** Writes `files` under `dir` (which must exist or is created). Paths are relative and were validated by the catalog. */
export async function writeFiles(dir: string, files: Array<{ path: string; content: string }>): Promise<WrittenFile[]> {
  const written: WrittenFile[] = [];
  for (const file of files) {
    const target = path.join(dir, file.path);
    if (!target.startsWith(path.resolve(dir) + path.sep))
      throw new Error(`refusing to write outside ${dir}: ${file.path}`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const bytes = Buffer.from(file.content, 'utf8');
    const temporary = `${target}.keel-${crypto.randomUUID()}.tmp`;
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, target);
    written.push({
      path: file.path,
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
      size_bytes: bytes.length,
    });
  }
  return written;
}

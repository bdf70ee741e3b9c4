import fs from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import type { RepoPolicy } from './config';

/** Every regular file under `root` as a repo-relative POSIX path, dotfiles included, `.git` and symlinks excluded. */
export async function* walkRepository(root: string, dir = ''): AsyncGenerator<string> {
  const entries = await fs.readdir(path.join(root, dir), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!dir && entry.name === '.git') continue;
      yield* walkRepository(root, relative);
    } else if (entry.isFile()) {
      // Symlinks are skipped: their target may lie outside the repository.
      yield relative;
    }
  }
}

export type FileDecision =
  | { emit: true; text: string; bytes: number }
  | { emit: false; reason: 'excluded' | 'not-included' | 'too-large' | 'binary' };

/** The include/exclude matchers of a policy: segment-wise globs (`**` spans directories), dotfiles matched. */
export function policyMatchers(policy: Pick<RepoPolicy, 'include_globs' | 'exclude_globs'>) {
  const options = { dot: true };
  return {
    excluded: policy.exclude_globs.length > 0 ? picomatch(policy.exclude_globs, options) : () => false,
    included: picomatch(policy.include_globs, options),
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The spec's per-file steps, in order: (1) the repo-relative POSIX path; (2) skip when an exclude glob matches; (3)
 * skip when no include glob matches; (4) skip when larger than `maxFileBytes`; (5) read as UTF-8, skipping files that
 * fail to decode. A NUL byte also counts as binary: it decodes, but no text store (PostgreSQL text) can hold it.
 */
export async function decideFile(input: {
  root: string;
  repoPath: string;
  matchers: ReturnType<typeof policyMatchers>;
  maxFileBytes: number;
}): Promise<FileDecision> {
  if (input.matchers.excluded(input.repoPath)) return { emit: false, reason: 'excluded' };
  if (!input.matchers.included(input.repoPath)) return { emit: false, reason: 'not-included' };
  const file = path.join(input.root, ...input.repoPath.split('/'));
  const { size } = await fs.stat(file);
  if (size > input.maxFileBytes) return { emit: false, reason: 'too-large' };
  const buffer = await fs.readFile(file);
  let text: string;
  try {
    text = UTF8.decode(buffer);
  } catch {
    return { emit: false, reason: 'binary' };
  }
  if (text.includes('\0')) return { emit: false, reason: 'binary' };
  return { emit: true, text, bytes: size };
}

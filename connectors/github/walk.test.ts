import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decideFile, policyMatchers, walkRepository } from './walk';

let root: string;

async function put(relative: string, content: string | Buffer): Promise<void> {
  const file = path.join(root, ...relative.split('/'));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-walk-'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function decide(repoPath: string, include: string[], exclude: string[] = [], maxFileBytes = 1000) {
  const matchers = policyMatchers({ include_globs: include, exclude_globs: exclude });
  const decision = await decideFile({ root, repoPath, matchers, maxFileBytes });
  return decision.emit ? 'emit' : decision.reason;
}

describe('the repository walk', () => {
  it('lists every file with dotfiles, in a stable order, without .git and symlinks', async () => {
    await put('README.md', '# hi\n');
    await put('.github/workflows/ci.yml', 'on: push\n');
    await put('.env.example', 'A=1\n');
    await put('src/deep/a.ts', 'x\n');
    await put('.git/HEAD', 'ref: refs/heads/main\n');
    await fs.symlink(path.join(root, 'README.md'), path.join(root, 'link.md'));
    const files: string[] = [];
    for await (const file of walkRepository(root)) files.push(file);
    expect(files).toEqual(['.env.example', '.github/workflows/ci.yml', 'README.md', 'src/deep/a.ts']);
  });
});

describe('the per-file steps', () => {
  beforeEach(async () => {
    await put('src/a.ts', 'const a = 1;\n');
    await put('src/deep/er/b.ts', 'const b = 2;\n');
    await put('src/generated/c.ts', 'const c = 3;\n');
    await put('.github/ci.yml', 'on: push\n');
    await put('big.txt', 'x'.repeat(1001));
    await put('edge.txt', 'x'.repeat(1000));
    await put('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]));
    await put('nul.txt', Buffer.from('abc\0def'));
    await put('utf8.md', 'héllo — ✓\n');
  });

  it('matches ** across directories, segment-wise, including dotfiles', async () => {
    expect(await decide('src/deep/er/b.ts', ['src/**/*.ts'])).toBe('emit');
    expect(await decide('src/a.ts', ['src/**/*.ts'])).toBe('emit');
    expect(await decide('src/a.ts', ['*.ts'])).toBe('not-included');
    expect(await decide('.github/ci.yml', ['**'])).toBe('emit');
  });

  it('lets an exclude glob win over an include glob', async () => {
    expect(await decide('src/generated/c.ts', ['src/**'], ['**/generated/**'])).toBe('excluded');
  });

  it('skips files larger than max_file_bytes and keeps one exactly at the limit', async () => {
    expect(await decide('big.txt', ['**'])).toBe('too-large');
    expect(await decide('edge.txt', ['**'])).toBe('emit');
  });

  it('checks exclusion and inclusion before size, and size before decoding', async () => {
    expect(await decide('big.txt', ['**'], ['big.txt'])).toBe('excluded');
    expect(await decide('big.txt', ['*.md'])).toBe('not-included');
    expect(await decide('logo.png', ['**'], [], 5)).toBe('too-large');
  });

  it('treats files that fail UTF-8 decoding (or hold NUL) as binary, and keeps valid UTF-8', async () => {
    expect(await decide('logo.png', ['**'])).toBe('binary');
    expect(await decide('nul.txt', ['**'])).toBe('binary');
    const matchers = policyMatchers({ include_globs: ['**'], exclude_globs: [] });
    const decision = await decideFile({ root, repoPath: 'utf8.md', matchers, maxFileBytes: 1000 });
    expect(decision).toEqual({ emit: true, text: 'héllo — ✓\n', bytes: Buffer.byteLength('héllo — ✓\n') });
  });
});

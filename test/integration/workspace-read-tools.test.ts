import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_LISTED, MAX_MATCHES, MAX_READ_CHARS, workspaceReadActivities } from '../../activities/workspace-read';
import type { ToolCall } from '../../routing/chat-types';

/** The read-only workspace tools over a real temporary directory: each rule a model can run into. */

let workspaceRoot: string;
let outside: string;
let tools: ReturnType<typeof workspaceReadActivities>;
const job = 'job-read-tools';

beforeAll(async () => {
  workspaceRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-ws-read-'));
  outside = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-ws-outside-'));
  tools = workspaceReadActivities({ workspaceRoot });
  const dir = path.join(workspaceRoot, job);
  await fs.mkdir(path.join(dir, 'src'), { recursive: true });
  await fs.mkdir(path.join(dir, 'node_modules', 'dep'), { recursive: true });
  await fs.writeFile(path.join(dir, 'README.md'), '# Title\nHello world\nSee src/app.ts\n');
  await fs.writeFile(path.join(dir, 'src', 'app.ts'), 'export const hello = "world";\nconsole.log(hello);\n');
  await fs.writeFile(path.join(dir, 'node_modules', 'dep', 'index.js'), 'hello from a dependency\n');
  await fs.writeFile(path.join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
  await fs.writeFile(path.join(dir, 'big.txt'), Array.from({ length: 5_000 }, (_, i) => `line ${i + 1}`).join('\n'));
  await fs.writeFile(path.join(outside, 'secret.txt'), 'not yours\n');
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'));
});

afterAll(async () => {
  await fs.rm(workspaceRoot, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

let counter = 0;
function call(name: string, args: unknown): ToolCall {
  counter += 1;
  const raw = typeof args === 'string' ? args : JSON.stringify(args);
  return { id: `call_${counter}`, type: 'function', function: { name, arguments: raw } };
}
const run = (name: string, args: unknown) => tools.readWorkspace({ jobId: job, call: call(name, args) });

describe('read_file', () => {
  test('numbers the lines, and reads a range', async () => {
    expect(await run('read_file', { path: 'README.md' })).toBe(
      'README.md: lines 1-3 of 3\n    1\t# Title\n    2\tHello world\n    3\tSee src/app.ts\n',
    );
    expect(await run('read_file', { path: 'README.md', start_line: 2, end_line: 2 })).toBe(
      'README.md: lines 2-2 of 3\n    2\tHello world\n',
    );
  });

  test('cuts a large file and says where to read on', async () => {
    const answer = await run('read_file', { path: 'big.txt' });
    expect(answer.length).toBeLessThan(MAX_READ_CHARS + 200);
    const next = /read on with start_line (\d+)/.exec(answer)?.[1];
    expect(next).toBeDefined();
    const onward = await run('read_file', { path: 'big.txt', start_line: Number(next) });
    expect(onward).toContain(`${next!.padStart(5)}\tline ${next}`);
  });

  test.each([
    [{ path: '../job-other/x.md' }, 'refused "../job-other/x.md": path must stay inside the workspace'],
    [{ path: '/etc/passwd' }, 'refused "/etc/passwd": path must be relative to the workspace'],
    [{ path: 'link.txt' }, 'refused link.txt: it leads outside the workspace'],
    [{ path: 'missing.md' }, 'missing.md does not exist'],
    [{ path: 'src' }, 'src is a directory'],
    [{ path: 'logo.png' }, 'logo.png is binary (8 bytes), not shown'],
    [{ nope: 1 }, 'read_file needs JSON arguments'],
    ['not json', 'read_file needs JSON arguments'],
  ])('%j → an answer saying why', async (args, reason) => {
    const answer = await run('read_file', args);
    expect(answer).toContain(reason);
    expect(answer).not.toContain('not yours');
  });
});

describe('list_files', () => {
  test('lists every file with its size, without dependency trees and without links', async () => {
    expect((await run('list_files', {})).split('\n')).toEqual([
      '4 files match **/*',
      'README.md\t35 bytes',
      'big.txt\t48892 bytes',
      'logo.png\t8 bytes',
      'src/app.ts\t50 bytes',
    ]);
  });

  test('filters by a glob, and refuses patterns that leave the workspace', async () => {
    expect(await run('list_files', { pattern: 'src/**/*.ts' })).toBe('1 files match src/**/*.ts\nsrc/app.ts\t50 bytes');
    expect(await run('list_files', { pattern: '**/*.rs' })).toBe('no files match **/*.rs');
    expect(await run('list_files', { pattern: '../**' })).toContain('refused "../**"');
  });

  test(`names at most ${MAX_LISTED} files and says how many more`, async () => {
    const many = path.join(workspaceRoot, 'job-many');
    await fs.mkdir(many, { recursive: true });
    await Promise.all(Array.from({ length: MAX_LISTED + 3 }, (_, i) => fs.writeFile(path.join(many, `f${i}.txt`), '')));
    const answer = await tools.readWorkspace({ jobId: 'job-many', call: call('list_files', {}) });
    expect(answer.split('\n')).toHaveLength(MAX_LISTED + 2);
    expect(answer).toMatch(/\[3 more: narrow the pattern\]$/);
  });
});

describe('search_files', () => {
  test('finds plain text with path and line number, not in dependencies or binaries', async () => {
    expect(await run('search_files', { query: 'hello' })).toBe(
      '2 matching lines\nsrc/app.ts:1: export const hello = "world";\nsrc/app.ts:2: console.log(hello);',
    );
    expect(await run('search_files', { query: 'src/app.ts' })).toBe('1 matching lines\nREADME.md:3: See src/app.ts');
  });

  test('takes a regular expression and a glob', async () => {
    expect(await run('search_files', { query: '^line 49\\d\\d$', regex: true, pattern: '*.txt' })).toMatch(
      /^100 matching lines\nbig.txt:4900: line 4900/,
    );
    expect(await run('search_files', { query: '(unclosed', regex: true })).toContain(
      'is not a regular expression this search runs (error parsing regexp: missing closing ): `(unclosed`)',
    );
  });

  test('a regular expression runs in linear time: a pattern that backtracks for ever elsewhere answers at once', async () => {
    // (a+)+$ on a long run of "a" ending in "!" takes a backtracking engine (JavaScript's RegExp) longer than the
    // activity's timeout; RE2 answers in one pass. Its own job directory, so the other tests' listings stay as they are.
    const jobId = 'job-linear-regex';
    await fs.mkdir(path.join(workspaceRoot, jobId));
    await fs.writeFile(path.join(workspaceRoot, jobId, 'a.txt'), `${'a'.repeat(5_000)}!\nplain line\n`);
    const search = (query: string) =>
      tools.readWorkspace({ jobId, call: call('search_files', { query, regex: true }) });
    expect(await search('(a+)+$')).toBe('no line matches "(a+)+$"');
    expect(await search('^(\\w+\\s?)+$')).toBe('1 matching lines\na.txt:2: plain line');
    // RE2 has no lookaround or backreferences; the model is told, so it can rewrite the pattern.
    expect(await search('(?=plain)')).toContain('it uses RE2 syntax: no lookahead, lookbehind or backreferences');
  });

  test(`returns at most ${MAX_MATCHES} lines and says how many more`, async () => {
    const answer = await run('search_files', { query: 'line', pattern: 'big.txt' });
    expect(answer.split('\n')).toHaveLength(MAX_MATCHES + 2);
    expect(answer).toMatch(/\[4800 more: narrow the query or the pattern\]$/);
  });

  test('refuses a call without a query', async () => {
    expect(await run('search_files', {})).toContain('search_files needs JSON arguments');
  });
});

import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { workspaceActivities } from '../../activities/workspace';
import { listJobFiles } from '../../db/files';
import type { ToolCall } from '../../routing/chat-types';
import { uniqueSuffix } from './env';
import { createTestDatabase, type TestDatabase } from './harness';

/**
 * The workspace tool executor over a real PostgreSQL schema and a real temporary directory, one
 * test per rule. Each test runs in a job of its own, so rows and files never leak between tests.
 */

let db: TestDatabase;
let workspaceRoot: string;
let tools: ReturnType<typeof workspaceActivities>;

beforeAll(async () => {
  db = await createTestDatabase();
  workspaceRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-ws-tools-'));
  tools = workspaceActivities({ pool: db.pool, workspaceRoot });
});

afterAll(async () => {
  await db?.drop();
  if (workspaceRoot) await fs.rm(workspaceRoot, { recursive: true, force: true });
});

/** A job row (job_files references job_runs) with its workflow and prompt. */
async function newJob(): Promise<string> {
  const suffix = uniqueSuffix();
  const [workflowId, promptId, jobId] = [`wf-${suffix}`, `pt-${suffix}`, `job-${suffix}`];
  await db.pool.query('INSERT INTO workflows (workflow_id) VALUES ($1)', [workflowId]);
  await db.pool.query(
    'INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, $3, $4)',
    [promptId, workflowId, 'test prompt', 'test'],
  );
  await db.pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, task_queue)
     VALUES ($1, $2, $3, 'running', 'test', 'keel-test')`,
    [jobId, workflowId, promptId],
  );
  return jobId;
}

let callCounter = 0;
function call(name: string, args: unknown): ToolCall {
  callCounter += 1;
  const raw = typeof args === 'string' ? args : JSON.stringify(args);
  return { id: `call_${callCounter}`, type: 'function', function: { name, arguments: raw } };
}

function sha256(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

function readWorkspace(jobId: string, relative: string): Promise<string> {
  return fs.readFile(path.join(workspaceRoot, jobId, relative), 'utf8');
}

const ORIGINAL = '# Notes\n\nstatus: draft\nowner: ada\n';

async function jobWithNotes(): Promise<string> {
  const jobId = await newJob();
  const written = await tools.runWorkspaceTool({
    jobId,
    call: call('write_file', { path: 'notes.md', content: ORIGINAL }),
  });
  expect(written.ok).toBe(true);
  return jobId;
}

test('write_file creates a file, then edit_file edits it and the row follows the new content', async () => {
  const jobId = await newJob();
  const created = await tools.runWorkspaceTool({
    jobId,
    call: call('write_file', { path: 'docs/notes.md', content: ORIGINAL }),
  });
  expect(created).toEqual({
    ok: true,
    path: 'docs/notes.md',
    sha256: sha256(ORIGINAL),
    sizeBytes: Buffer.byteLength(ORIGINAL),
    action: 'created',
    message: `wrote docs/notes.md (${Buffer.byteLength(ORIGINAL)} bytes)`,
  });

  const edited = await tools.runWorkspaceTool({
    jobId,
    call: call('edit_file', { path: './docs/notes.md', old: 'status: draft', new: 'status: final' }),
  });
  const expected = ORIGINAL.replace('status: draft', 'status: final');
  expect(edited).toEqual({
    ok: true,
    path: 'docs/notes.md',
    sha256: sha256(expected),
    sizeBytes: Buffer.byteLength(expected),
    action: 'edited',
    message: `edited docs/notes.md (${Buffer.byteLength(expected)} bytes)`,
  });
  expect(await readWorkspace(jobId, 'docs/notes.md')).toBe(expected);
  expect(await listJobFiles(db.pool, jobId)).toMatchObject([
    { path: 'docs/notes.md', sha256: sha256(expected), size_bytes: Buffer.byteLength(expected) },
  ]);
});

test('write_file on an existing path is a rewrite', async () => {
  const jobId = await jobWithNotes();
  const result = await tools.runWorkspaceTool({
    jobId,
    call: call('write_file', { path: 'notes.md', content: 'new' }),
  });
  expect(result).toMatchObject({ ok: true, action: 'rewritten', message: 'rewrote notes.md (3 bytes)' });
  expect(await readWorkspace(jobId, 'notes.md')).toBe('new');
});

test('an ambiguous span is refused and the file and its row are unchanged', async () => {
  const jobId = await newJob();
  const content = 'a: 1\nb: 1\n';
  await tools.runWorkspaceTool({ jobId, call: call('write_file', { path: 'x.yaml', content }) });
  const result = await tools.runWorkspaceTool({
    jobId,
    call: call('edit_file', { path: 'x.yaml', old: ': 1', new: ': 2' }),
  });
  expect(result.ok).toBe(false);
  expect(result.message).toContain('edit_file refused x.yaml: "old" occurs 2 times');
  expect(await readWorkspace(jobId, 'x.yaml')).toBe(content);
  expect(await listJobFiles(db.pool, jobId)).toMatchObject([{ path: 'x.yaml', sha256: sha256(content) }]);
});

test('a span that is not in the file is refused with a hint and the file is unchanged', async () => {
  const jobId = await jobWithNotes();
  const result = await tools.runWorkspaceTool({
    jobId,
    call: call('edit_file', { path: 'notes.md', old: 'status: drafted', new: 'status: final' }),
  });
  expect(result.ok).toBe(false);
  expect(result.message).toContain('"old" was not found');
  expect(result.message).toContain('closest line is 3: "status: draft"');
  expect(await readWorkspace(jobId, 'notes.md')).toBe(ORIGINAL);
});

test('editing a file that does not exist is refused, pointing at write_file', async () => {
  const jobId = await newJob();
  const result = await tools.runWorkspaceTool({
    jobId,
    call: call('edit_file', { path: 'missing.md', old: 'a', new: 'b' }),
  });
  expect(result).toEqual({
    ok: false,
    message: 'edit_file needs an existing file; use write_file to create missing.md',
  });
  expect(await listJobFiles(db.pool, jobId)).toEqual([]);
});

test('retrying an applied edit succeeds with the same result, does not apply it twice and leaves one row', async () => {
  const jobId = await jobWithNotes();
  // `new` contains `old`: a blind re-run would find `old` again and apply the edit a second time.
  const edit = call('edit_file', { path: 'notes.md', old: 'owner: ada', new: 'owner: ada\nreviewer: grace' });
  const first = await tools.runWorkspaceTool({ jobId, call: edit });
  const retried = await tools.runWorkspaceTool({ jobId, call: edit });
  expect(first).toMatchObject({ ok: true, action: 'edited' });
  expect(retried).toEqual(first);
  expect(await readWorkspace(jobId, 'notes.md')).toBe(`${ORIGINAL.trimEnd()}\nreviewer: grace\n`);
  expect(await listJobFiles(db.pool, jobId)).toHaveLength(1);
});

test('retrying an edit whose attempt died after the rename but before the row records the row', async () => {
  const jobId = await jobWithNotes();
  const edit = call('edit_file', { path: 'notes.md', old: 'draft', new: 'final' });
  const first = await tools.runWorkspaceTool({ jobId, call: edit });
  // What the row looks like when the attempt crashed between renaming the file and upserting the row.
  await db.pool.query('UPDATE job_files SET sha256 = $3, size_bytes = $4 WHERE job_id = $1 AND path = $2', [
    jobId,
    'notes.md',
    sha256(ORIGINAL),
    Buffer.byteLength(ORIGINAL),
  ]);
  const retried = await tools.runWorkspaceTool({ jobId, call: edit });
  expect(retried).toEqual(first);
  expect(await listJobFiles(db.pool, jobId)).toMatchObject([
    { path: 'notes.md', sha256: sha256(ORIGINAL.replace('draft', 'final')) },
  ]);
});

test('retrying a write_file reports the action of the attempt that applied it', async () => {
  const jobId = await newJob();
  const write = call('write_file', { path: 'a.txt', content: 'alpha' });
  const first = await tools.runWorkspaceTool({ jobId, call: write });
  const retried = await tools.runWorkspaceTool({ jobId, call: write });
  expect(first).toMatchObject({ ok: true, action: 'created' });
  expect(retried).toEqual(first);
  expect(await listJobFiles(db.pool, jobId)).toHaveLength(1);
});

test('the same edit as a new call (not a retry) is refused, saying it looks applied already', async () => {
  const jobId = await jobWithNotes();
  const args = { path: 'notes.md', old: 'status: draft', new: 'status: final' };
  expect(await tools.runWorkspaceTool({ jobId, call: call('edit_file', args) })).toMatchObject({ ok: true });
  const again = await tools.runWorkspaceTool({ jobId, call: call('edit_file', args) });
  expect(again.ok).toBe(false);
  expect(again.message).toContain('may have been applied already');
});

test('a retry after the file changed again runs the call afresh instead of trusting its receipt', async () => {
  const jobId = await jobWithNotes();
  const edit = call('edit_file', { path: 'notes.md', old: 'status: draft', new: 'status: final' });
  await tools.runWorkspaceTool({ jobId, call: edit });
  await tools.runWorkspaceTool({ jobId, call: call('write_file', { path: 'notes.md', content: ORIGINAL }) });
  const rerun = await tools.runWorkspaceTool({ jobId, call: edit });
  expect(rerun).toMatchObject({ ok: true, action: 'edited' });
  expect(await readWorkspace(jobId, 'notes.md')).toBe(ORIGINAL.replace('status: draft', 'status: final'));
});

test.each([
  ['write_file', { path: '../escape.md', content: 'x' }],
  ['edit_file', { path: '../escape.md', old: 'a', new: 'b' }],
  ['edit_file', { path: '/etc/hostname', old: 'a', new: 'b' }],
])('%s outside the workspace is refused and writes nothing', async (name, args) => {
  const jobId = await newJob();
  const result = await tools.runWorkspaceTool({ jobId, call: call(name, args) });
  expect(result.ok).toBe(false);
  expect(result.message).toContain(`${name} refused ${JSON.stringify(args.path)}`);
  await expect(fs.access(path.join(workspaceRoot, 'escape.md'))).rejects.toThrow();
  expect(await listJobFiles(db.pool, jobId)).toEqual([]);
});

test('an unknown tool is refused and names the tools there are', async () => {
  const jobId = await newJob();
  const result = await tools.runWorkspaceTool({ jobId, call: call('delete_file', { path: 'notes.md' }) });
  expect(result).toEqual({ ok: false, message: 'unknown tool delete_file; the tools are write_file and edit_file' });
});

test.each([
  ['write_file', '{"path": "a.md"}', 'write_file needs JSON arguments'],
  ['edit_file', '{"path": "a.md", "old": "a"}', 'edit_file needs JSON arguments'],
  ['edit_file', 'not json', 'edit_file needs JSON arguments'],
])('%s with arguments %s is refused with the expected shape', async (name, raw, message) => {
  const jobId = await newJob();
  const result = await tools.runWorkspaceTool({ jobId, call: call(name, raw) });
  expect(result.ok).toBe(false);
  expect(result.message).toContain(message);
});

test('editing a directory or writing over one is refused, not retried as a fault', async () => {
  const jobId = await jobWithNotes();
  await tools.runWorkspaceTool({ jobId, call: call('write_file', { path: 'docs/a.md', content: 'a' }) });
  const edit = await tools.runWorkspaceTool({ jobId, call: call('edit_file', { path: 'docs', old: 'a', new: 'b' }) });
  const write = await tools.runWorkspaceTool({ jobId, call: call('write_file', { path: 'docs', content: 'b' }) });
  expect(edit).toEqual({ ok: false, message: 'edit_file refused docs: it is a directory' });
  expect(write).toEqual({ ok: false, message: 'write_file refused docs: it is a directory' });
});

test('writing under a path that is a file is refused', async () => {
  const jobId = await jobWithNotes();
  const result = await tools.runWorkspaceTool({
    jobId,
    call: call('write_file', { path: 'notes.md/x.md', content: 'x' }),
  });
  expect(result).toEqual({ ok: false, message: 'write_file refused notes.md/x.md: a parent of it is a file' });
});

test('a file that is not UTF-8 text is refused for editing and left as it is', async () => {
  const jobId = await newJob();
  const bytes = Buffer.from([0x61, 0xff, 0x62]);
  await fs.mkdir(path.join(workspaceRoot, jobId), { recursive: true });
  await fs.writeFile(path.join(workspaceRoot, jobId, 'blob.bin'), bytes);
  const result = await tools.runWorkspaceTool({
    jobId,
    call: call('edit_file', { path: 'blob.bin', old: 'a', new: 'c' }),
  });
  expect(result).toEqual({
    ok: false,
    message: 'edit_file refused blob.bin: it is not UTF-8 text; use write_file to replace it',
  });
  expect(await fs.readFile(path.join(workspaceRoot, jobId, 'blob.bin'))).toEqual(bytes);
});

test('the job workspace holds only the files the model wrote', async () => {
  const jobId = await jobWithNotes();
  await tools.runWorkspaceTool({ jobId, call: call('edit_file', { path: 'notes.md', old: 'draft', new: 'final' }) });
  expect(await fs.readdir(path.join(workspaceRoot, jobId))).toEqual(['notes.md']);
});

test('writeWorkspaceFile is the same executor under its earlier name', () => {
  expect(tools.writeWorkspaceFile).toBe(tools.runWorkspaceTool);
});

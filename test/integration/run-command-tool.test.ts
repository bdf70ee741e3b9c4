import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { workspaceCommandActivities } from '../../activities/workspace-commands';
import type { ToolCall } from '../../routing/chat-types';
import { createTestDatabase, type TestDatabase } from './harness';
import { eventually } from './eventually';

/*
 * `run_command` (activities/workspace-commands.ts, docs/toolbelt.md) against a real workspace directory, the real
 * sandbox and PostgreSQL's `command_runs`: what runs, what is refused, the caps, and at-most-once across a retried
 * activity, including one whose worker process was SIGKILLed while the command ran.
 */
let db: TestDatabase;
let root: string;
const JOB = 'job-run-command';
const LEVEL = `${JOB}/L4.executor/1`;
/** A script in the workspace that appends one line to runs.log each time it runs, then prints what it was given. */
const COUNTER = `require('node:fs').appendFileSync('runs.log', 'ran\\n'); console.log('args:', process.argv.slice(2).join(' '));`;
const ALLOWED = ['node count.js ...', 'node slow.js', 'node loud.js', 'node hang.js'];

beforeAll(async () => {
  db = await createTestDatabase();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-run-command-'));
  // command_runs needs its job row.
  await db.pool.query(`INSERT INTO workflows (workflow_id, created_by, org_id) VALUES ('wf-rc', 'rita', 'org')`);
  await db.pool.query(
    `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ('pt-rc', 'wf-rc', 'p', 'rita')`,
  );
  await db.pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue)
     VALUES ($1, 'wf-rc', 'pt-rc', 'running', 'rita', 'org', 'q')`,
    [JOB],
  );
  const dir = path.join(root, JOB);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'count.js'), COUNTER);
  await fs.writeFile(path.join(dir, 'loud.js'), `process.stdout.write('x'.repeat(200_000));`);
  await fs.writeFile(path.join(dir, 'hang.js'), `setInterval(() => {}, 1000);`);
  // Appends to runs.log, then waits to be killed: the kill lands while the command runs.
  await fs.writeFile(
    path.join(dir, 'slow.js'),
    `require('node:fs').appendFileSync('runs.log', 'slow\\n'); setTimeout(() => {}, 60_000);`,
  );
});

afterAll(async () => {
  await db?.drop();
  await fs.rm(root, { recursive: true, force: true });
});

const call = (id: string, command: string): ToolCall => ({
  id,
  type: 'function',
  function: { name: 'run_command', arguments: JSON.stringify({ command }) },
});
/** The activity's input for one call: its key is the call's place in the level, as the level workflow makes it. */
const inputFor = (place: string, command: string) => ({
  jobId: JOB,
  levelId: LEVEL,
  runKey: `${LEVEL}#${place}`,
  call: call(`call-${place}`, command),
  allowed: ALLOWED,
});
const activities = (limits?: { timeoutMs: number; outputCapBytes: number; tailBytes: number }) =>
  workspaceCommandActivities({ pool: db.pool, workspaceRoot: root, commandLimits: limits });
const runsLog = async () => (await fs.readFile(path.join(root, JOB, 'runs.log'), 'utf8').catch(() => '')).split('\n');
const countOf = async (line: string) => (await runsLog()).filter((l) => l === line).length;

test('an allowed command runs in the workspace and the model reads its exit code and output', async () => {
  const outcome = await activities().runWorkspaceCommand(inputFor('call-1', 'node count.js "two words"'));
  expect(outcome.ran).toBe(true);
  expect(outcome.exitCode).toBe(0);
  expect(outcome.content).toMatch(/^\$ node count\.js 'two words'\nexit code 0 \(\d+\.\d s, /);
  expect(outcome.content).toContain('args: two words');
});

test('the same call again (a retried activity) answers from the record and does not run the command twice', async () => {
  const before = await countOf('ran');
  const input = inputFor('call-2', 'node count.js once');
  const first = await activities().runWorkspaceCommand(input);
  const again = await activities().runWorkspaceCommand(input);
  expect(again).toEqual(first);
  expect(await countOf('ran')).toBe(before + 1);
});

test.each([
  ['npm install left-pad', 'not an allowed command; this level may run: "node count.js ..."'],
  ['node count.js; rm -rf /', 'shell operators are not allowed (;)'],
  ['node count.js $HOME', 'variables are not expanded ($HOME)'],
  ['node ../count.js', 'not an allowed command'],
])('%j is refused, and nothing runs', async (command, reason) => {
  const before = await runsLog();
  const outcome = await activities().runWorkspaceCommand(inputFor(`refused-${command}`, command));
  expect(outcome.ran).toBe(false);
  expect(outcome.content).toContain(reason);
  expect(await runsLog()).toEqual(before);
});

test('output over the cap kills the command; the model sees why and the end of the output', async () => {
  const outcome = await activities({ timeoutMs: 30_000, outputCapBytes: 50_000, tailBytes: 100 }).runWorkspaceCommand(
    inputFor('call-loud', 'node loud.js'),
  );
  expect(outcome.exitCode).toBeNull();
  expect(outcome.content).toContain('killed: over 50000 bytes of output');
  expect(outcome.content).toMatch(/last 100 of \d+ bytes\)\nx{100}$/);
});

test('a command past its time limit is killed with everything it started', async () => {
  const outcome = await activities({ timeoutMs: 1_000, outputCapBytes: 50_000, tailBytes: 100 }).runWorkspaceCommand(
    inputFor('call-hang', 'node hang.js'),
  );
  expect(outcome.exitCode).toBeNull();
  expect(outcome.content).toContain('killed after 1.0 s: over the time limit');
});

test('a worker SIGKILLed while its command runs: the retried activity does not run the command again', async () => {
  // The first attempt runs in a process of its own, as a worker does, and is killed once the command has started.
  const dist = path.resolve(__dirname, '../../dist');
  const script = `
    const { createPool } = require(${JSON.stringify(`${dist}/db/pool.js`)});
    const { workspaceCommandActivities } = require(${JSON.stringify(`${dist}/activities/workspace-commands.js`)});
    const pool = createPool({ dsn: process.env.DSN, max: 1, ssl: false, schema: process.env.SCHEMA });
    workspaceCommandActivities({ pool, workspaceRoot: process.env.ROOT }).runWorkspaceCommand(JSON.parse(process.env.INPUT));
  `;
  const input = inputFor('call-killed', 'node slow.js');
  const worker = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, DSN: db.dsn, SCHEMA: db.schema, ROOT: root, INPUT: JSON.stringify(input) },
    stdio: 'inherit',
  });
  const exited = new Promise((resolve) => worker.on('exit', resolve));
  await eventually(async () => (await countOf('slow')) === 1, { what: 'the first attempt to start node slow.js' });
  worker.kill('SIGKILL');
  await exited;

  const retried = await activities().runWorkspaceCommand(input);
  expect(retried.content).toContain('not run again: an earlier attempt of this call started it');
  expect(await countOf('slow')).toBe(1);
});

test('an unlisted command an approval let through runs only when it is exactly the approved script', async () => {
  const refused = await activities().runWorkspaceCommand(inputFor('unlisted-1', 'node other.js'));
  expect(refused).toMatchObject({ ran: false, unlisted: { script: 'node other.js' } });

  const before = await countOf('ran');
  // Another command than the one approved is refused as before, even with an approval in hand.
  const other = await activities().runWorkspaceCommand({
    ...inputFor('unlisted-2', 'node ./count.js'),
    approvedScript: 'node other.js',
  });
  expect(other.ran).toBe(false);
  const approved = await activities().runWorkspaceCommand({
    ...inputFor('unlisted-3', 'node ./count.js approved'),
    approvedScript: 'node ./count.js approved',
  });
  expect(approved).toMatchObject({ ran: true, exitCode: 0 });
  expect(approved.content).toContain('args: approved');
  expect(await countOf('ran')).toBe(before + 1);
});

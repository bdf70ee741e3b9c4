import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { uniqueSuffix } from './env';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/*
 * A command outside a level's allowlist sent to an approval (docs/toolbelt.md) on the real stack: the `build-and-test`
 * executor, told by the demo model's `#unlisted-command`, first calls `run_command` with `node --version`, which its
 * allowlist does not name. In a project whose approval policy says `unlisted_commands: approval`, that is an approval
 * request naming the command; it runs (once) only when approved, and the model is told when it was declined.
 */
let infra: Infrastructure;
let keel: KeelUnderTest;
const suffix = uniqueSuffix();
const org = 'org-test';
const PROMPT = 'Write hello.md that greets the reader #unlisted-command';

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

async function call(path: string, json?: unknown, method?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method: method ?? (json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${keel.token}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

async function projectWith(name: string, policy: unknown): Promise<string> {
  const slug = `${name}-${suffix}`;
  expect((await call('/v1/projects', { name, slug })).status).toBe(201);
  expect((await call(`/v1/admin/approval-policies/orgs/${org}/projects/${slug}`, { policy }, 'PUT')).status).toBe(200);
  return slug;
}

/** Runs the job to its end; a person decides each approval it requests as `decide` says. */
async function runJob(
  project: string,
  decide?: 'approve' | 'reject',
): Promise<{ jobId: string; events: EventEnvelope[] }> {
  const submitted = await call('/v1/chat', { prompt: PROMPT, scenario: 'build-and-test', project_slug: project });
  expect(submitted.status).toBe(202);
  const jobId = (submitted.body as { job_id: string }).job_id;
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    events.push(event);
    if (event.kind === 'approval_requested' && decide) {
      const decided = await call(`/v1/approvals/${String(event.payload.approval_id)}/decide`, { decision: decide });
      expect(decided.status).toBe(200);
    }
  }
  return { jobId, events };
}

const commandsRun = async (jobId: string) =>
  (
    await infra.db.pool.query<{ command: string }>(
      'SELECT command FROM command_runs WHERE job_id = $1 ORDER BY started_at',
      [jobId],
    )
  ).rows.map((r) => r.command);

/** The executor's first run_command: its result as the model read it. */
const firstCommandResult = (events: EventEnvelope[]) => {
  const executor = events.filter((e) => e.agent_role === 'L4.executor');
  const first = executor.find((e) => e.kind === 'tool_call' && e.payload.name === 'run_command')!;
  return String(
    executor.find((e) => e.kind === 'tool_result' && e.payload.call_id === first.payload.call_id)?.payload.preview,
  );
};

test('approved by a person: the approval names the command, and it runs once', async () => {
  const project = await projectWith('unlisted-approve', { unlisted_commands: 'approval' });
  const { jobId, events } = await runJob(project, 'approve');

  expect(events.at(-1)?.kind).toBe('final');
  const requested = events.filter((e) => e.kind === 'approval_requested');
  expect(requested).toHaveLength(1);
  expect(requested[0]!.payload).toMatchObject({ action: 'run_command node --version' });
  expect(String(requested[0]!.payload.reason)).toContain('outside its allowlist');
  expect(events.find((e) => e.kind === 'approval_decided')?.payload).toMatchObject({ decision: 'approve' });
  expect(firstCommandResult(events)).toMatch(/^\$ node --version\s+exit code 0 \(/);
  // Once, then the usual test run after the write.
  expect(await commandsRun(jobId)).toEqual(['node --version', 'node --test']);
});

test("declined by the policy's rule (it sees the command): not run, and the model is told", async () => {
  const project = await projectWith('unlisted-reject', {
    unlisted_commands: 'approval',
    rules: [{ id: 'no-unlisted-node', when: { actions: ['run_command node *'] }, decide: 'reject' }],
  });
  const { jobId, events } = await runJob(project);

  expect(events.at(-1)?.kind).toBe('final');
  expect(events.some((e) => e.kind === 'approval_requested')).toBe(false);
  expect(events.find((e) => e.kind === 'approval_decided')?.payload).toMatchObject({
    decision: 'reject',
    decided_by: 'policy:no-unlisted-node',
    action: 'run_command node --version',
  });
  expect(firstCommandResult(events)).toMatch(
    /^run_command declined: node --version is outside this level's allowlist and its approval was rejected by the project's approval policy \(rule no-unlisted-node\); it did not run\./,
  );
  expect(await commandsRun(jobId)).toEqual(['node --test']);
});

test('declined by a person: not run, and the model is told', async () => {
  const project = await projectWith('unlisted-decline', { unlisted_commands: 'approval' });
  const { jobId, events } = await runJob(project, 'reject');

  expect(events.at(-1)?.kind).toBe('final');
  expect(events.filter((e) => e.kind === 'approval_requested')).toHaveLength(1);
  expect(firstCommandResult(events)).toContain('run_command declined: node --version');
  expect(await commandsRun(jobId)).toEqual(['node --test']);
});

test('without the policy setting, an unlisted command is refused as before: no approval', async () => {
  const project = await projectWith('unlisted-refuse', { rules: [] });
  const { jobId, events } = await runJob(project);

  expect(events.at(-1)?.kind).toBe('final');
  expect(events.some((e) => e.kind.startsWith('approval_'))).toBe(false);
  expect(firstCommandResult(events)).toContain('run_command refused "node --version": not an allowed command');
  expect(await commandsRun(jobId)).toEqual(['node --test']);
});

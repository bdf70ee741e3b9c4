import { createSecretStore } from '../../secrets/store';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { DEFAULT_BUILD_LIMITS } from '../../products/build-runner';
import { startFakeVercel, type FakeVercel } from '../fakes/fake-vercel';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

let infra: Infrastructure;
let keel: KeelUnderTest;
let vercel: FakeVercel;
let secretsDir: string;

beforeAll(async () => {
  infra = await startInfrastructure();
  vercel = await startFakeVercel();
  secretsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-secrets-'));
  keel = await startKeel({
    ...infra,
    products: {
      buildLimits: DEFAULT_BUILD_LIMITS,
      vercel: { apiUrl: vercel.url, pollIntervalMs: 1, readyTimeoutMs: 30_000, tokenSecretId: 'VERCEL_TOKEN' },
    },
    secrets: createSecretStore({ dir: secretsDir, ttlMs: 0, fromEnv: false, env: {} }),
  });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await vercel?.close();
  await infra?.close();
  await fs.rm(secretsDir, { recursive: true, force: true });
});

const auth = () => ({ authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' });
const post = (url: string, body: unknown) =>
  fetch(`${keel.baseUrl}${url}`, { method: 'POST', headers: auth(), body: JSON.stringify(body) });

async function submit(body: Record<string, unknown>): Promise<{ job_id: string; workflow_id: string }> {
  const response = await post('/v1/chat', body);
  expect(response.status).toBe(202);
  return (await response.json()) as { job_id: string; workflow_id: string };
}

/** Reads the whole stream, calling `onEvent` for each event as it arrives (a person reacting). */
async function follow(jobId: string, onEvent: (event: EventEnvelope) => Promise<void> = async () => {}) {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

/** Answers questions in order (the scope question, then the clarifying one). */
const answering = (jobId: string, answers: string[]) => async (event: EventEnvelope) => {
  if (event.kind !== 'ask_user') return;
  const response = await post(`/v1/jobs/${jobId}/resume`, { call_id: event.payload.call_id, answer: answers.shift() });
  expect(response.status).toBe(200);
};

const PRODUCT_KINDS = [
  'scope_checked',
  'scope_confirmed',
  'clarify_checked',
  'clarify_confirmed',
  'solutions_resolved',
  'template_selected',
  'template_scaffolded',
  'design_selected',
  'design_applied',
  'build_verify_started',
  'build_verify_passed',
  'build_verify_failed',
  'vercel_deployed',
  'vercel_deploy_failed',
  'human_task_assigned',
  'ui_action',
  'provider_fallback',
];

test('a product build from prompt to final: gates, template, design, a real build that fails twice then passes, a human task and a deploy', async () => {
  const rule = await submit({ prompt: 'rule: no payment processing' });
  await follow(rule.job_id);

  const accepted = await submit({
    prompt: 'Build a landing page for a bakery that takes payments #build #clarify #build-fail=2',
    workflow_id: rule.workflow_id,
  });
  const answers = answering(accepted.job_id, ['yes, build it', 'A static web page with our opening hours']);
  const events = await follow(accepted.job_id, async (event) => {
    await answers(event);
    if (event.kind === 'human_task_assigned') {
      // The job waits on a person: the API says paused (the step records it before it announces the task).
      const job = await fetch(`${keel.baseUrl}/v1/jobs/${accepted.job_id}`, { headers: auth() });
      expect(((await job.json()) as { status: string }).status).toBe('paused');
      // The person adds the token to the secrets store, then completes the task over the API.
      await fs.writeFile(path.join(secretsDir, 'VERCEL_TOKEN'), vercel.token);
      const done = await post(`/v1/human-tasks/${String(event.payload.task_id)}/complete`, { note: 'added' });
      expect(done.status).toBe(200);
    }
  });

  const final = events.at(-1)!;
  expect(final.kind).toBe('final');
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
  const kinds = events.map((e) => e.kind);
  for (const kind of PRODUCT_KINDS) expect(kinds).toContain(kind);

  // The product kinds in the order they happened (ui_action and provider_fallback recur; first places shown).
  const order = kinds.filter((k) => PRODUCT_KINDS.includes(k) && k !== 'ui_action' && k !== 'provider_fallback');
  expect(order).toEqual([
    'scope_checked',
    'scope_confirmed',
    'clarify_checked',
    'clarify_confirmed',
    'solutions_resolved',
    'template_selected',
    'template_scaffolded',
    'design_selected',
    'design_applied',
    'build_verify_started',
    'build_verify_failed',
    'build_verify_started',
    'build_verify_failed',
    'build_verify_started',
    'build_verify_passed',
    'vercel_deploy_failed',
    'human_task_assigned',
    'vercel_deployed',
  ]);
  const first = (kind: string) => events.find((e) => e.kind === kind)!;
  expect(first('scope_checked').payload).toMatchObject({ verdict: 'out_of_scope', rule: 'no payment processing' });
  expect(first('scope_confirmed').payload).toMatchObject({ confirmed: true });
  expect(first('clarify_confirmed').payload).toMatchObject({ answer: 'A static web page with our opening hours' });
  expect(first('template_selected').payload).toMatchObject({ template_id: 'static-page', pinned: false });
  expect(first('design_selected').payload).toMatchObject({ design_id: 'warm' });
  expect(first('design_applied').payload).toMatchObject({ path: 'styles/tokens.css', layout: 'single-column' });
  expect(first('build_verify_failed').payload).toMatchObject({ step: 'build', exit_code: 1 });
  expect(String(first('build_verify_failed').payload.output_tail)).toContain('missing local file: missing-page.html');
  expect(first('build_verify_passed').payload).toMatchObject({ step: 'test', exit_code: 0 });
  expect(first('provider_fallback').payload).toMatchObject({
    to_provider: 'demo',
    reason: 'no_paid_provider_configured',
  });

  // A failed build goes back to the executor like a failed verification.
  const gates = events.filter((e) => e.kind === 'gate_decision').map((e) => e.payload.decision);
  expect(gates).toEqual(['retry', 'retry', 'pass']);

  // The full L2 roster ran; verifiers, gates and aggregators report no provider or model.
  const finished = events.filter((e) => e.kind === 'level_finished');
  expect([...new Set(finished.map((e) => e.agent_role))]).toEqual(
    expect.arrayContaining(['L2.architect', 'L2.tech_lead', 'L2.security_lead', 'L2.adversarial_lead']),
  );
  for (const event of finished.filter((e) => e.agent_role === 'L3.verifier' || e.payload.deterministic === true)) {
    expect(event.payload).not.toHaveProperty('provider');
    expect(event.payload).not.toHaveProperty('model');
  }

  // The build and the deploy are real: the site that went live is the built page with the executor's section.
  const deployed = first('vercel_deployed').payload;
  expect(final.payload.deployed_url).toBe(deployed.url);
  const live = vercel.deployment(String(deployed.deployment_id))!;
  const html = live.files.get('index.html')!.toString('utf8');
  expect(html).toContain('<title>Bakery</title>');
  expect(html).toContain('<section id="output">');
  expect(live.files.get('styles/tokens.css')!.toString('utf8')).toContain('#fdf6ec');
  expect(final.payload.created_files).toEqual(expect.arrayContaining(['index.html', 'styles/tokens.css', 'output.md']));
});

test('a build that fails four times escalates to the L2 level that issued the task, then passes', async () => {
  const accepted = await submit({
    prompt: 'Build a landing page for a bakery #build #build-fail=4',
    metadata: { deploy: false },
  });
  const events = await follow(accepted.job_id);
  expect(events.at(-1)!.kind).toBe('final');
  const gates = events.filter((e) => e.kind === 'gate_decision').map((e) => e.payload);
  expect(gates.map((g) => g.decision)).toEqual(['retry', 'retry', 'retry', 'escalate', 'pass']);
  expect(gates[3]).toMatchObject({ to: 'L2.adversarial_lead' });
  expect(events.filter((e) => e.kind === 'build_verify_failed')).toHaveLength(4);
  expect(events.some((e) => e.kind === 'vercel_deployed' || e.kind === 'vercel_deploy_failed')).toBe(false);
});

test.each(['ts-library', 'node-service'])(
  '#build-fail breaks the real build of a %s too, and the retry builds it',
  async (template) => {
    const accepted = await submit({
      prompt: 'Build it for a bakery #build #build-fail=1',
      metadata: { template, deploy: false },
    });
    const events = await follow(accepted.job_id);
    expect(events.at(-1)!.kind).toBe('final');
    expect(events.find((e) => e.kind === 'template_selected')!.payload).toMatchObject({ template_id: template });
    const failed = events.filter((e) => e.kind === 'build_verify_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.payload).toMatchObject({ step: 'build' });
    expect(failed[0]!.payload.exit_code).not.toBe(0);
    expect(String(failed[0]!.payload.output_tail)).toContain('src/build-check.');
    expect(events.filter((e) => e.kind === 'gate_decision').map((e) => e.payload.decision)).toEqual(['retry', 'pass']);
  },
);

test('a blocking security finding fails the review with its own verdict and sends the fix back to the executor', async () => {
  const accepted = await submit({
    prompt: 'Build a landing page for a bakery #build #security-block=1',
    metadata: { deploy: false },
  });
  const events = await follow(accepted.job_id);
  expect(events.at(-1)!.kind).toBe('final');
  const gates = events.filter((e) => e.kind === 'gate_decision').map((e) => e.payload);
  expect(gates.map((g) => g.decision)).toEqual(['retry', 'pass']);
  // The build and the verifier passed; the security lead's review, a level of its own, failed it.
  expect(gates[0]).toMatchObject({
    reviewer: 'L2.security_lead',
    to: 'L4.executor',
    level_id: `${accepted.job_id}/L2.security_lead/2`,
  });
  expect(gates[0]!.deltas).toEqual([expect.stringMatching(/^L2\.security_lead: output\.md: /)]);
  expect(gates[1]).toMatchObject({ reviewed_by: ['L2.security_lead', 'L2.adversarial_lead'] });
  const reviews = events.filter((e) => e.kind === 'verifier_finished' && e.agent_role === 'L2.security_lead');
  expect(reviews.map((e) => e.payload.verdict)).toEqual(['fail', 'pass']);
  expect(reviews[0]!.payload.findings).toEqual([expect.objectContaining({ severity: 'blocking' })]);
  const failedReview = events.find(
    (e) => e.kind === 'level_finished' && e.agent_role === 'L2.security_lead' && e.payload.verdict === 'fail',
  )!;
  expect(failedReview.payload).not.toHaveProperty('model');
  // The adversarial lead reviews only what the security lead let through.
  const adversarial = events.filter((e) => e.kind === 'verifier_finished' && e.agent_role === 'L2.adversarial_lead');
  expect(adversarial.map((e) => e.payload.verdict)).toEqual(['pass']);
  expect(events.filter((e) => e.kind === 'level_started' && e.agent_role === 'L4.executor')).toHaveLength(2);
});

test('a blocking adversarial finding on four reviews is retried three times, then escalated, then passes', async () => {
  const accepted = await submit({
    prompt: 'Build a landing page for a bakery #build #adversarial-block=4',
    metadata: { deploy: false },
  });
  const events = await follow(accepted.job_id);
  expect(events.at(-1)!.kind).toBe('final');
  const gates = events.filter((e) => e.kind === 'gate_decision').map((e) => e.payload);
  expect(gates.map((g) => g.decision)).toEqual(['retry', 'retry', 'retry', 'escalate', 'pass']);
  for (const gate of gates.slice(0, 4)) expect(gate).toMatchObject({ reviewer: 'L2.adversarial_lead' });
  expect(gates[3]).toMatchObject({ to: 'L2.adversarial_lead' });
  expect(events.filter((e) => e.kind === 'build_verify_passed')).toHaveLength(5);
});

test('an out-of-scope request the person refuses builds nothing and says why', async () => {
  const rule = await submit({ prompt: 'rule: no payment processing' });
  await follow(rule.job_id);
  const accepted = await submit({
    prompt: 'Build a landing page for a bakery that takes payments #build',
    workflow_id: rule.workflow_id,
  });
  const events = await follow(accepted.job_id, answering(accepted.job_id, ['no']));
  const final = events.at(-1)!;
  expect(final.kind).toBe('final');
  expect(events.find((e) => e.kind === 'scope_confirmed')!.payload).toMatchObject({ confirmed: false });
  expect(String(final.payload.summary)).toContain('no payment processing');
  expect(final.payload.created_files).toEqual([]);
  expect(events.some((e) => e.kind === 'template_scaffolded' || e.agent_role === 'L4.executor')).toBe(false);
});

test('metadata pins choose the template and design; a TypeScript library builds and tests for real and is not deployed', async () => {
  const accepted = await submit({
    prompt: 'Build something small #build',
    metadata: { template: 'ts-library', design: 'midnight' },
  });
  const events = await follow(accepted.job_id);
  expect(events.at(-1)!.kind).toBe('final');
  const first = (kind: string) => events.find((e) => e.kind === kind)!;
  // A pinned template is decided: the clarity gate has nothing to ask.
  expect(first('clarify_checked').payload).toMatchObject({ clear: true });
  expect(first('template_selected').payload).toMatchObject({ template_id: 'ts-library', pinned: true });
  expect(first('design_selected').payload).toMatchObject({ design_id: 'midnight', pinned: true });
  expect(first('design_applied').payload).toMatchObject({ path: 'src/design-tokens.ts', layout: 'two-column' });
  expect(first('build_verify_passed').payload).toMatchObject({ step: 'test', exit_code: 0 });
  const tokens = await fs.readFile(path.join(keel.workspaceRoot, accepted.job_id, 'src', 'design-tokens.ts'), 'utf8');
  expect(tokens).toContain('#0f172a');
  expect(events.some((e) => e.kind === 'vercel_deployed')).toBe(false);
  expect(String(events.at(-1)!.payload.summary)).toContain('nothing to deploy');
});

test('a scenario that asks for confirmations: a person approves the template, swaps the design and approves the deploy', async () => {
  await fs.writeFile(path.join(secretsDir, 'VERCEL_TOKEN'), vercel.token);
  const accepted = await submit({ prompt: 'Build a landing page for a bakery', scenario: 'product-confirmed' });
  const decisions = [{ decision: 'approve' }, { decision: 'reject', comment: 'gallery' }, { decision: 'approve' }];
  const actions: string[] = [];
  const events = await follow(accepted.job_id, async (event) => {
    if (event.kind !== 'approval_requested') return;
    actions.push(String(event.payload.action));
    const response = await post(`/v1/approvals/${String(event.payload.approval_id)}/decide`, decisions.shift());
    expect(response.status).toBe(200);
  });
  expect(events.at(-1)!.kind).toBe('final');
  expect(actions).toEqual(['use template static-page', 'use design warm', 'deploy bakery to Vercel']);
  const kinds = events.map((e) => e.kind);
  // Gates switched off in the scenario do not run.
  expect(kinds).toContain('scope_checked');
  expect(kinds).not.toContain('clarify_checked');
  expect(kinds).not.toContain('solutions_resolved');
  const designs = events.filter((e) => e.kind === 'design_selected').map((e) => e.payload.design_id);
  expect(designs).toEqual(['warm', 'gallery']);
  expect(events.find((e) => e.kind === 'design_applied')!.payload).toMatchObject({
    design_id: 'gallery',
    layout: 'grid',
  });
  expect(events.filter((e) => e.kind === 'ui_action').map((e) => e.payload.action)).toEqual([
    'open_approval',
    'open_approval',
    'open_approval',
    'open_url',
  ]);
  expect(kinds).toContain('vercel_deployed');
});

import { describe, expect, it } from '@jest/globals';
import { EVENT_PAYLOADS, type EventKind, type EventPayload } from '../../../../events/payloads';
import { describeEvent, peopleNamedBy } from './describe';
import { readEvent } from './events';

const L = 'job-1/L4.executor/1';
const alternatives = [{ id: 'static-site', score: 0.9 }];

/**
 * One valid payload of every kind the catalog knows. Typed by the catalog, so a new kind without a sample here does
 * not compile; the test below then asks each for a readable row.
 */
const SAMPLES: { [K in EventKind]: EventPayload<K> } = {
  scenario_started: { scenario: 'build', levels: ['L2.architect', 'L4.executor'] },
  scenario_finished: { scenario: 'build' },
  scenario_chained: { from: 'build', to: 'review' },
  agent_handoff: { from: 'L2.architect', to: 'L4.executor', attempt: 1 },
  gate_decision: { level_id: L, attempt: 1, decision: 'pass', verdict: 'pass', deltas: [] },
  budget_consumed: { level_id: L, level_cost_usd: 0, total_usd: 0, limit_usd: null },
  budget_exceeded: { total_usd: 2, limit_usd: 1 },
  final: { agent_message: 'done', summary: 'Wrote hello.md', created_files: ['hello.md'] },
  error: { retryable: false, message: 'the job was cancelled', code: 'cancelled' },
  prompt_appended: { prompt_id: 'p-2', preview: 'also add a footer' },
  follow_up_applied: { policy: 'interrupt', prompt_id: 'p-3', delivered: 'interrupted', next_job_id: 'job-2' },
  queued: { position: 2, reason: 'org_limit', org_limit: 1 },
  job_forked: {
    source_job_id: 'job-1',
    from_level_run_id: L,
    manifest_sha256: null,
    carried_level_ids: [L],
    model_tier: null,
    prompt_patched: false,
  },
  node_started: { node_id: L, level_id: L, role: 'L4.executor', attempt: 1 },
  node_finished: { node_id: L, level_id: L, ok: true },
  routing_decision: { level_id: L, provider: 'demo', model: 'demo-1', tier: 'free', model_candidates: [] },
  level_started: { level_id: L, role: 'L4.executor', attempt: 1 },
  level_finished: { level_id: L, ok: true, attempt: 1, duration_ms: 10, cost_usd: 0, output_preview: 'ok' },
  model_fallback: { level_id: L, from_model: '', to_model: 'demo-1', to_provider: 'demo', reason: 'no key' },
  verifier_started: { level_id: L, attempt: 1 },
  verifier_finished: { level_id: L, verdict: 'pass', deltas: [] },
  prompt_sent: { level_id: L, round: 1, preview: 'Write hello.md' },
  tool_call: { level_id: L, call_id: 'c1', name: 'write_file' },
  tool_result: { level_id: L, call_id: 'c1', preview: 'wrote hello.md' },
  file_created: { level_id: L, path: 'hello.md', sha256: 'ab', size_bytes: 12 },
  thinking: { level_id: L, round: 1, summary: 'plan the file' },
  heartbeat: { level_id: L, round: 1, waiting_ms: 15_000 },
  ask_user: { call_id: 'c2', question: 'Which tone?', level_id: L },
  approval_requested: { approval_id: 'ap-1', call_id: 'c3', action: 'deploy', reason: 'ship it', level_id: L },
  approval_decided: {
    approval_id: 'ap-1',
    call_id: 'c3',
    level_id: L,
    decision: 'approve',
    decided_by: 'policy:cheap-docs',
    rule_id: 'cheap-docs',
  },
  reminder_sent: {
    level_id: L,
    waiting_for: 'approval',
    call_id: 'c3',
    approval_id: 'ap-1',
    text: 'deploy',
    waited_seconds: 3600,
  },
  escalated: {
    level_id: L,
    waiting_for: 'approval',
    call_id: 'c3',
    text: 'deploy',
    waited_seconds: 7200,
    to: 'role:leads',
  },
  timed_out: {
    level_id: L,
    waiting_for: 'ask_user',
    call_id: 'c1',
    text: 'Which tone?',
    waited_seconds: 86400,
    answer: 'formal',
  },
  scope_checked: { level_id: L, verdict: 'in_scope', rule: null, matched: [], rules_checked: 2 },
  scope_confirmed: { level_id: L, call_id: 'c4', confirmed: true, answer: 'yes', rule: 'no payments' },
  clarify_checked: { level_id: L, clear: false, reason: 'no template named', question: 'What kind?' },
  clarify_confirmed: { level_id: L, call_id: 'c5', answer: 'a web page' },
  solutions_resolved: { level_id: L, chosen: 'static-site', reason: 'simplest', alternatives },
  template_selected: {
    level_id: L,
    template_id: 'static-site',
    name: 'Static site',
    reason: 'a landing page',
    pinned: false,
    alternatives,
  },
  template_scaffolded: { level_id: L, template_id: 'static-site', files: [{ path: 'a', sha256: 'b', size_bytes: 1 }] },
  design_selected: { level_id: L, design_id: 'sunrise', name: 'Sunrise', reason: 'warm', pinned: false, alternatives },
  design_applied: {
    level_id: L,
    design_id: 'sunrise',
    template_id: 'static-site',
    path: 'design.css',
    layout: 'centered',
    tokens: { accent: '#f00' },
  },
  build_verify_started: { level_id: L, attempt: 1, template_id: 'static-site', commands: ['npm run build'] },
  build_verify_passed: {
    level_id: L,
    attempt: 1,
    step: 'build',
    command: 'npm run build',
    duration_ms: 900,
    output_tail: 'built',
    network: 'none',
    exit_code: 0,
  },
  build_verify_failed: {
    level_id: L,
    attempt: 1,
    step: 'build',
    command: 'npm run build',
    duration_ms: 900,
    output_tail: 'error TS2322: {"x": 1}',
    network: 'none',
    exit_code: 2,
    killed: null,
  },
  vercel_deployed: { level_id: L, deployment_id: 'd1', url: 'https://x.example', ready_state: 'READY', files: 3 },
  vercel_deploy_failed: { level_id: L, status: 403, message: 'forbidden' },
  human_task_assigned: {
    task_id: 't1',
    title: 'Add the Vercel token',
    detail: 'Add VERCEL_TOKEN to the secrets store',
    assignee: 'runner@example.test',
    due_at: null,
    state: 'open',
    level_id: L,
  },
  ui_action: { level_id: L, action: 'open_task', target: 't1', label: 'Open the task' },
  provider_fallback: {
    level_id: L,
    from_band: ['frontier'],
    to_provider: 'demo',
    to_model: 'demo',
    to_tier: 'free',
    reason: 'none configured',
  },
  product_build_started: { work_item: 'w1', work_type: 'site', capabilities: [], missing: ['deploy'] },
  acquisition_unit_started: {
    roadmap_id: 'r1',
    capability: 'deploy',
    unit: 'u1',
    kind: 'doc',
    attempt: 1,
    unit_id: 'x',
  },
  acquisition_unit_verified: { roadmap_id: 'r1', capability: 'deploy', unit: 'u1', attempt: 1, evidence: ['ok'] },
  acquisition_unit_failed: {
    roadmap_id: 'r1',
    capability: 'deploy',
    unit: 'u1',
    attempt: 1,
    reason: 'no',
    final: false,
  },
  capability_acquired: { roadmap_id: 'r1', capability: 'deploy', units: [{ unit: 'u1', attempts: 1 }] },
  capability_acquisition_blocked: {
    roadmap_id: 'r1',
    capability: 'deploy',
    unit: 'u1',
    reason: 'no',
    action: 'add a key',
  },
  vertical_discovery_started: { vertical_id: 'v1', name: 'Bakeries' },
  vertical_planning_resumed: { vertical_id: 'v1', call_id: 'c6', confirmed: true },
};

let sequence = 0;
const event = (kind: string, payload: object) =>
  readEvent({
    job_id: 'job-1',
    agent_role: 'L4.executor',
    sequence: ++sequence,
    occurred_at: '2026-07-01T10:00:00Z',
    kind,
    payload: payload as Record<string, unknown>,
  });

describe('every event kind of the catalog has a readable row', () => {
  it.each(Object.keys(EVENT_PAYLOADS))('%s', (kind) => {
    const sample = SAMPLES[kind as EventKind];
    expect(sample).toBeDefined();
    const parsed = event(kind, sample);
    // The sample fits its contract, so the row below is the kind's own sentence, not the generic one.
    expect(parsed.known).toBe(true);
    const row = describeEvent(parsed);
    expect(row.known).toBe(true);
    expect(row.title).not.toBe(kind);
    expect(row.title).not.toMatch(/[{[]"/);
    // Payload text the event itself carries (a build log) may hold braces; the row never dumps the payload.
    expect(row.detail).not.toContain(JSON.stringify(sample).slice(0, 12));
  });

  it('reads a verifier that passed as a verdict, not as its payload', () => {
    const row = describeEvent(event('verifier_finished', { level_id: L, verdict: 'pass', deltas: [] }));
    expect(row).toMatchObject({ title: 'Verdict: pass', detail: 'no changes asked', tone: 'ok' });
  });

  it("reads a verdict level's JSON answer as what it says, and other JSON output as a pointer to the drawer", () => {
    const finished = (output: string) =>
      describeEvent(
        event('level_finished', {
          level_id: 'job-1/L3.verifier/1',
          ok: true,
          attempt: 1,
          duration_ms: 96,
          cost_usd: 0,
          output_preview: output,
          verdict: 'pass',
        }),
      ).detail;
    expect(finished('{"verdict":"pass","deltas":[]}')).toContain('answered pass, nothing to change');
    expect(finished('{"verdict":"fail","deltas":["add a title"]}')).toContain('answered fail, 1 change asked');
    expect(finished('{"verdict":"pass","findings":[{"severity":"minor"}]}')).toContain('1 finding');
    expect(finished('{"files": ["a", "b"], "note": "cut mid')).toContain('structured output');
    for (const output of ['{"verdict":"pass","deltas":[]}', '{"files": ["a"'])
      expect(finished(output)).not.toContain('{"');
  });

  it("names a human task's assignee as the page looks them up, else by the id the payload holds", () => {
    const assigned = event('human_task_assigned', { ...SAMPLES.human_task_assigned, assignee: 'usr-7' });
    expect(describeEvent(assigned).title).toBe('Task for usr-7: Add the Vercel token');
    const named = describeEvent(assigned, (id) => (id === 'usr-7' ? 'Ada Lovelace' : id));
    expect(named.title).toBe('Task for Ada Lovelace: Add the Vercel token');
    expect(peopleNamedBy([assigned, event('ui_action', SAMPLES.ui_action)])).toEqual(['usr-7']);
  });

  it('says a job paused on its budget waits for a decision, and which budget', () => {
    const paused = (scope: string) =>
      describeEvent(event('budget_exceeded', { total_usd: 1, limit_usd: 1, scope, call_id: 'budget-x' })).title;
    expect(paused('job')).toBe("Budget reached (the job's): waiting for a decision");
    expect(paused('org')).toBe("Budget reached (the org's monthly): waiting for a decision");
    expect(describeEvent(event('budget_exceeded', SAMPLES.budget_exceeded)).title).toBe('Job budget exceeded');
  });

  it('reads a cancel as neutral, and another failure as one', () => {
    expect(describeEvent(event('error', SAMPLES.error))).toMatchObject({ title: 'Cancelled', tone: 'plain' });
    expect(describeEvent(event('error', { retryable: false, message: 'boom', code: 'job_failed' }))).toMatchObject({
      title: 'Failed: job_failed',
      tone: 'bad',
    });
  });

  it('keeps a generic row for a kind the catalog does not know, with the start of its payload', () => {
    const row = describeEvent(event('something_new', { url: 'https://x.example' }));
    expect(row).toEqual({ title: 'something_new', detail: '{"url":"https://x.example"}', known: false, tone: 'plain' });
  });
});

import { describe, expect, it } from '@jest/globals';
import { deriveJob } from './derive';
import { runAttribution } from './run-attribution';
import { readEvent, type JobEvent } from './events';

const JOB = 'job-1';
let sequence = 0;
function ev(agentRole: string, kind: string, payload: Record<string, unknown>): JobEvent {
  sequence += 1;
  return readEvent({
    job_id: JOB,
    agent_role: agentRole,
    sequence,
    occurred_at: '2026-07-01T10:00:00Z',
    kind,
    payload,
  });
}
const level = (role: string, attempt: number) => `${JOB}/${role}/${attempt}`;

describe('the job page folded from events', () => {
  it('lists the L2 roster in the order it ran, not by name, and a re-issued level where it ran again', () => {
    const roster = ['L2.architect', 'L2.tech_lead', 'L2.security_lead', 'L2.adversarial_lead'];
    const started = (role: string, attempt: number) =>
      ev(role, 'level_started', { level_id: level(role, attempt), role, attempt });
    const view = deriveJob([
      ...roster.map((role) => started(role, 1)),
      started('L4.executor', 1),
      started('L2.adversarial_lead', 2),
      started('L2.architect', 2),
    ]);
    const l2 = view.groups.find((g) => g.level === 'L2')!;
    expect(l2.runs.map((r) => r.key)).toEqual([
      'L2.architect/1',
      'L2.tech_lead/1',
      'L2.security_lead/1',
      'L2.adversarial_lead/1',
      'L2.adversarial_lead/2',
      'L2.architect/2',
    ]);
  });

  it('builds the level tree with attempts, verdicts, retries, the answering model and every fallback hop', () => {
    const events = [
      ev('L1.team_lead', 'routing_decision', { provider: 'openai', model: 'gpt', tier: 'cheap', model_candidates: [] }),
      ev('L4.executor', 'level_started', { level_id: level('L4.executor', 1), role: 'L4.executor', attempt: 1 }),
      ev('L4.executor', 'routing_decision', {
        level_id: level('L4.executor', 1),
        provider: 'anthropic',
        model: 'claude',
        model_display_name: 'Claude',
        tier: 'frontier',
        model_candidates: [],
      }),
      ev('L4.executor', 'model_fallback', {
        level_id: level('L4.executor', 1),
        from_model: 'claude',
        to_model: 'gpt-big',
        to_provider: 'openai',
        reason: 'rate_limited',
      }),
      ev('L4.executor', 'level_finished', {
        level_id: level('L4.executor', 1),
        ok: true,
        output_preview: '',
        attempt: 1,
        duration_ms: 900,
        cost_usd: 0.2,
        provider: 'openai',
        model: 'gpt-big',
      }),
      ev('L3.verifier', 'level_finished', {
        level_id: level('L3.verifier', 1),
        ok: true,
        attempt: 1,
        duration_ms: 100,
        cost_usd: 0,
        output_preview: '',
        verdict: 'fail',
      }),
      ev('L1.team_lead', 'gate_decision', {
        level_id: level('L3.verifier', 1),
        attempt: 1,
        decision: 'retry',
        to: 'L4.executor',
        deltas: ['add a title'],
      }),
      ev('L4.executor', 'level_started', { level_id: level('L4.executor', 2), role: 'L4.executor', attempt: 2 }),
      ev('L1.team_lead', 'budget_consumed', {
        level_id: level('L4.executor', 1),
        level_cost_usd: 0.2,
        total_usd: 0.2,
        limit_usd: 5,
      }),
    ];
    const view = deriveJob(events);
    // In the order they ran: the executor before the verifier that checks it.
    expect(view.groups.map((g) => g.level)).toEqual(['L4', 'L3']);
    const [first, second] = view.groups[0]!.runs;
    expect(first).toMatchObject({
      attempt: 1,
      ok: true,
      intended: { provider: 'anthropic', model: 'claude', displayName: 'Claude' },
      answered: { provider: 'openai', model: 'gpt-big' },
      hops: [{ fromModel: 'claude', toModel: 'gpt-big', toProvider: 'openai', reason: 'rate_limited' }],
    });
    expect(second).toMatchObject({
      attempt: 2,
      finishedAt: null,
      state: 'running',
      label: 'attempt 2',
      retryReason: 'retried after verification 1: add a title',
    });
    // A verifier names no model: none is made up for it.
    expect(view.groups[1]!.runs[0]).toMatchObject({ verdict: 'fail', answered: null, gate: { decision: 'retry' } });
    expect(view.retries).toBe(1);
    expect(view).toMatchObject({ costUsd: 0.2, limitUsd: 5 });
  });

  it('keeps a question and an approval open until their call has a result', () => {
    const asked = [
      ev('L2.architect', 'ask_user', { call_id: 'c1', question: 'Tone?', level_id: level('L2.architect', 1) }),
      ev('L2.architect', 'approval_requested', {
        approval_id: 'ap-1',
        call_id: 'c2',
        action: 'deploy',
        reason: 'ship',
        level_id: level('L2.architect', 1),
      }),
    ];
    expect(deriveJob(asked).questions[0]!.answered).toBe(false);
    expect(deriveJob(asked).approvals[0]!.settled).toBe(false);
    const answered = deriveJob([
      ...asked,
      ev('L2.architect', 'tool_result', { call_id: 'c1', preview: 'friendly', level_id: level('L2.architect', 1) }),
    ]);
    expect(answered.questions[0]!.answered).toBe(true);
    expect(answered.approvals[0]!.settled).toBe(false);
  });

  it('lists written files once, cumulatively with final’s created_files', () => {
    const view = deriveJob([
      ev('L4.executor', 'file_created', {
        path: 'a.md',
        sha256: 'x',
        size_bytes: 1,
        level_id: level('L4.executor', 1),
      }),
      ev('L1.team_lead', 'final', { agent_message: 'ok', summary: 'done', created_files: ['a.md', 'b.md'] }),
    ]);
    expect(view.files).toEqual(['a.md', 'b.md']);
    expect(view.final?.kind).toBe('final');
  });

  it('reads a known kind whose payload does not fit its contract as a generic row, and folds nothing from it', () => {
    const broken = ev('L2.architect', 'ask_user', { question: 'no call id' });
    expect(broken.known).toBe(false);
    expect(deriveJob([broken]).questions).toEqual([]);
  });

  it("lists a product build's prelude, builds and release as runs, and a chained scenario's runs as first runs", () => {
    const L = (role: string, suffix: string | number) => `${JOB}/${role}/${suffix}`;
    const view = deriveJob([
      ev('L1.team_lead', 'scenario_started', { scenario: 'product', levels: ['L2.architect', 'L4.executor'] }),
      ev('L1.team_lead', 'level_started', { level_id: L('L1.team_lead', 'prelude'), role: 'L1.team_lead', attempt: 1 }),
      ev('L1.team_lead', 'scope_checked', {
        level_id: L('L1.team_lead', 'prelude'),
        verdict: 'in_scope',
        rule: null,
        matched: [],
        rules_checked: 0,
      }),
      ev('L2.architect', 'level_started', { level_id: L('L2.architect', 1), role: 'L2.architect', attempt: 1 }),
      ev('L4.executor', 'level_started', { level_id: L('L4.executor', 1), role: 'L4.executor', attempt: 1 }),
      ev('L3.build_verifier', 'build_verify_started', {
        level_id: L('L3.build_verifier', 1),
        attempt: 1,
        template_id: 'static-site',
        commands: ['npm run build'],
      }),
      ev('L3.build_verifier', 'build_verify_passed', {
        level_id: L('L3.build_verifier', 1),
        attempt: 1,
        step: 'build',
        command: 'npm run build',
        duration_ms: 500,
        output_tail: 'ok',
        network: 'none',
        exit_code: 0,
      }),
      ev('L2.security_lead', 'level_started', {
        level_id: L('L2.security_lead', 2),
        role: 'L2.security_lead',
        attempt: 2,
      }),
      ev('L2.security_lead', 'verifier_started', { level_id: L('L2.security_lead', 2), attempt: 1 }),
      ev('L1.team_lead', 'scenario_chained', { from: 'product', to: 'review' }),
      ev('L1.team_lead', 'scenario_started', { scenario: 'review', levels: ['L2.architect'] }),
      ev('L2.architect', 'level_started', { level_id: L('L2.architect', 2), role: 'L2.architect', attempt: 2 }),
      ev('L2.release_manager', 'level_started', {
        level_id: L('L2.release_manager', 'release'),
        role: 'L2.release_manager',
        attempt: 1,
      }),
    ]);
    expect(view.runs.map((r) => [r.key, r.label])).toEqual([
      ['L1.team_lead/prelude', 'prelude'],
      ['L2.architect/1', ''],
      ['L4.executor/1', ''],
      ['L3.build_verifier/1', 'build 1'],
      ['L2.security_lead/2', 'review 1'],
      // The review scenario's architect is its first run there, whatever the level id's count says.
      ['L2.architect/2', ''],
      ['L2.release_manager/release', 'release'],
    ]);
    expect(view.runs[3]).toMatchObject({ state: 'ok', verdict: 'pass', durationMs: 500 });
    expect(view.groups.map((g) => g.level)).toEqual(['L1', 'L2', 'L4', 'L3']);
    // The prelude's own events fold into its run.
    const scope = [...view.levelOfEvent.entries()].filter(([, id]) => id === L('L1.team_lead', 'prelude'));
    expect(scope).toHaveLength(2);
  });

  it('leaves no run running once the job ended: cancelled with a cancel, interrupted otherwise', () => {
    const started = ev('L4.executor', 'level_started', {
      level_id: level('L4.executor', 1),
      role: 'L4.executor',
      attempt: 1,
    });
    const cancelled = deriveJob([
      started,
      ev('L1.team_lead', 'error', { retryable: false, message: 'the job was cancelled', code: 'cancelled' }),
    ]);
    expect(cancelled.runs[0]!.state).toBe('cancelled');
    expect(cancelled.ending).toEqual({ kind: 'cancelled', message: 'the job was cancelled' });
    const failed = deriveJob([
      started,
      ev('L1.team_lead', 'error', { retryable: false, message: 'boom', code: 'job_failed' }),
    ]);
    expect(failed.runs[0]!.state).toBe('interrupted');
    expect(failed.ending).toMatchObject({ kind: 'failed', code: 'job_failed' });
  });

  it('closes open runs as the job row says when the row ended before the terminal event reached the stream', () => {
    const started = ev('L1.team_lead', 'level_started', {
      level_id: level('L1.team_lead', 1),
      role: 'L1.team_lead',
      attempt: 1,
    });
    expect(deriveJob([started]).runs[0]!.state).toBe('running');
    expect(deriveJob([started], 'cancelled').runs[0]!.state).toBe('cancelled');
    expect(deriveJob([started], 'failed').runs[0]!.state).toBe('interrupted');
  });

  it('says "completed with warnings" when a deploy failed, and names every fallback', () => {
    const view = deriveJob([
      ev('L4.executor', 'routing_decision', {
        level_id: level('L4.executor', 1),
        provider: '',
        model: '',
        tier: 'frontier',
        band: ['frontier'],
        offline: true,
        model_candidates: [],
      }),
      ev('L2.release_manager', 'vercel_deploy_failed', {
        level_id: `${JOB}/L2.release_manager/release`,
        status: 401,
        message: 'bad token',
      }),
      ev('L1.team_lead', 'final', {
        agent_message: 'ok',
        summary: 'built',
        created_files: [],
        prompt_tokens: 120,
        completion_tokens: 30,
        reasoning_tokens: 5,
      }),
    ]);
    expect(view.ending).toEqual({
      kind: 'completed_with_warnings',
      summary: 'built',
      warnings: ['The deploy failed: bad token'],
    });
    expect(view.fallbacks).toEqual([
      expect.objectContaining({ demo: true, text: expect.stringMatching(/offline demo model/) }),
    ]);
    expect(view.tokens).toEqual({ prompt: 120, completion: 30, reasoning: 5 });
  });

  it('sums the finished runs’ tokens until final carries the job’s totals', () => {
    const finished = (role: string, prompt: number) =>
      ev(role, 'level_finished', {
        level_id: level(role, 1),
        ok: true,
        attempt: 1,
        duration_ms: 1,
        cost_usd: 0.01,
        output_preview: '',
        prompt_tokens: prompt,
        completion_tokens: 10,
      });
    const view = deriveJob([finished('L2.architect', 100), finished('L4.executor', 50)]);
    expect(view.tokens).toEqual({ prompt: 150, completion: 20, reasoning: 0 });
    expect(view.costUsd).toBeCloseTo(0.02);
  });

  it('attributes a rerouted run to the tier the budget asked for, and folds one fallback of many levels into a line', () => {
    const rerouted = (role: string) => [
      ev(role, 'routing_decision', {
        level_id: level(role, 1),
        provider: 'demo',
        model: 'keel-demo',
        tier: 'free',
        offline: true,
        band: ['cheap'],
        model_candidates: [],
      }),
      ev(role, 'provider_fallback', {
        level_id: level(role, 1),
        from_band: ['cheap'],
        to_provider: 'demo',
        to_model: 'keel-demo',
        to_tier: 'free',
        reason: 'no_paid_provider_configured',
      }),
    ];
    const view = deriveJob([
      ...rerouted('L2.architect'),
      ...rerouted('L4.executor'),
      ev('L4.executor', 'level_finished', {
        level_id: level('L4.executor', 1),
        ok: true,
        attempt: 1,
        duration_ms: 1,
        cost_usd: 0,
        output_preview: '',
        provider: 'demo',
        model: 'keel-demo',
      }),
    ]);
    expect(view.fallbacks).toEqual([
      expect.objectContaining({
        roles: ['L2.architect', 'L4.executor'],
        text: 'asked for the cheap tier, answered by demo/keel-demo (no_paid_provider_configured)',
        demo: true,
      }),
    ]);
    const executor = view.runs.find((r) => r.role === 'L4.executor')!;
    expect(runAttribution(executor)).toBe('asked for the cheap tier, answered by demo/keel-demo');
    expect(runAttribution(view.runs[0]!)).toBe('asked for the cheap tier; the offline demo model stood in');
  });
});

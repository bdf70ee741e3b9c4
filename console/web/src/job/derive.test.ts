import { describe, expect, it } from '@jest/globals';
import type { AgentEvent } from '../schemas';
import { deriveJob, describeEvent } from './derive';

const JOB = 'job-1';
let sequence = 0;
function ev(agentRole: string, kind: string, payload: Record<string, unknown>): AgentEvent {
  sequence += 1;
  return { job_id: JOB, agent_role: agentRole, sequence, occurred_at: '2026-07-01T10:00:00Z', kind, payload };
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
      ev('L1.team_lead', 'routing_decision', { provider: 'openai', model: 'gpt', tier: 'cheap' }),
      ev('L4.executor', 'level_started', { level_id: level('L4.executor', 1), role: 'L4.executor', attempt: 1 }),
      ev('L4.executor', 'routing_decision', {
        level_id: level('L4.executor', 1),
        provider: 'anthropic',
        model: 'claude',
        model_display_name: 'Claude',
        tier: 'frontier',
      }),
      ev('L4.executor', 'model_fallback', {
        level_id: level('L4.executor', 1),
        from_model: 'claude',
        to_model: 'gpt-big',
        to_provider: 'openai',
        reason: 'rate_limited',
      }),
      ev('L4.executor', 'level_finished', {
        ok: true,
        attempt: 1,
        duration_ms: 900,
        cost_usd: 0.2,
        provider: 'openai',
        model: 'gpt-big',
      }),
      ev('L3.verifier', 'level_finished', { ok: true, attempt: 1, duration_ms: 100, cost_usd: 0, verdict: 'fail' }),
      ev('L1.team_lead', 'gate_decision', {
        level_id: level('L3.verifier', 1),
        decision: 'retry',
        to: 'L4.executor',
        deltas: ['add a title'],
      }),
      ev('L4.executor', 'level_started', { level_id: level('L4.executor', 2), role: 'L4.executor', attempt: 2 }),
      ev('L1.team_lead', 'budget_consumed', { level_id: level('L4.executor', 1), total_usd: 0.2, limit_usd: 5 }),
    ];
    const view = deriveJob(events);
    expect(view.groups.map((g) => g.level)).toEqual(['L3', 'L4']);
    const [first, second] = view.groups[1]!.runs;
    expect(first).toMatchObject({
      attempt: 1,
      ok: true,
      intended: { provider: 'anthropic', model: 'claude', displayName: 'Claude' },
      answered: { provider: 'openai', model: 'gpt-big' },
      hops: [{ fromModel: 'claude', toModel: 'gpt-big', toProvider: 'openai', reason: 'rate_limited' }],
    });
    expect(second).toMatchObject({ attempt: 2, finishedAt: null });
    // A verifier names no model: none is made up for it.
    expect(view.groups[0]!.runs[0]).toMatchObject({ verdict: 'fail', answered: null, gate: { decision: 'retry' } });
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
      }),
    ];
    expect(deriveJob(asked).questions[0]!.answered).toBe(false);
    expect(deriveJob(asked).approvals[0]!.settled).toBe(false);
    const answered = deriveJob([...asked, ev('L2.architect', 'tool_result', { call_id: 'c1', preview: 'friendly' })]);
    expect(answered.questions[0]!.answered).toBe(true);
    expect(answered.approvals[0]!.settled).toBe(false);
  });

  it('lists written files once, cumulatively with final’s created_files', () => {
    const view = deriveJob([
      ev('L4.executor', 'file_created', { path: 'a.md', sha256: 'x', size_bytes: 1 }),
      ev('L1.team_lead', 'final', { agent_message: 'ok', summary: 'done', created_files: ['a.md', 'b.md'] }),
    ]);
    expect(view.files).toEqual(['a.md', 'b.md']);
    expect(view.final?.kind).toBe('final');
  });

  it('describes an unknown kind with a generic row carrying its payload', () => {
    const row = describeEvent(ev('L4.executor', 'vercel_deployed', { url: 'https://x.example' }));
    expect(row).toEqual({ title: 'vercel_deployed', detail: '{"url":"https://x.example"}', known: false });
  });
});

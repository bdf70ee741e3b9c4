import { checkPayload, eventDraft, eventEnvelope } from './envelope';
import { EVENT_KIND_GROUPS, isTerminalKind } from './kinds';

const base = {
  schema_version: '1',
  job_id: 'job-1',
  workflow_id: 'wf-1',
  prompt_id: 'pt-1',
  agent_role: 'L2.architect',
  sequence: 1,
  occurred_at: '2026-11-21T00:00:00.000Z',
  kind: 'level_started',
  payload: {},
};

describe('event envelope', () => {
  test('accepts the spec envelope, and unknown kinds pass through', () => {
    expect(eventEnvelope.parse(base)).toEqual(base);
    expect(eventEnvelope.parse({ ...base, kind: 'something_new', payload: { x: 1 } }).kind).toBe('something_new');
  });

  test.each([
    ['agent_role without a level prefix', { agent_role: 'architect' }],
    ['agent_role with level L5', { agent_role: 'L5.boss' }],
    ['schema_version other than 1', { schema_version: '2' }],
    ['sequence 0', { sequence: 0 }],
    ['occurred_at not ISO 8601', { occurred_at: 'yesterday' }],
  ])('rejects %s', (_name, patch) => {
    expect(eventEnvelope.safeParse({ ...base, ...patch }).success).toBe(false);
  });

  test('a draft needs a deterministic key', () => {
    expect(eventDraft.safeParse({ agent_role: 'L1.team_lead', kind: 'final', payload: {} }).success).toBe(false);
  });

  test("the catalog holds the 50 kinds the spec names, the two vercel kinds verbatim, plus Keel's own", () => {
    const { workflow: keelOwn, ...spec } = EVENT_KIND_GROUPS;
    expect(Object.values(spec).flat()).toHaveLength(50);
    expect(keelOwn).toEqual([
      'prompt_appended',
      'job_forked',
      'follow_up_applied',
      'approval_decided',
      'reminder_sent',
      'escalated',
      'timed_out',
      'queued',
    ]);
    const all = Object.values(EVENT_KIND_GROUPS).flat();
    expect(all).toEqual(
      expect.arrayContaining(['vercel_deployed', 'vercel_deploy_failed', 'model_fallback', 'ask_user']),
    );
    expect(new Set(all).size).toBe(all.length);
    expect(isTerminalKind('final') && isTerminalKind('error') && !isTerminalKind('level_finished')).toBe(true);
  });
});

describe('payload contracts', () => {
  test('final carries agent_message, summary and cumulative created_files', () => {
    expect(() => checkPayload('final', { agent_message: 'a', summary: 's', created_files: ['x.md'] })).not.toThrow();
    expect(() => checkPayload('final', { summary: 's', created_files: [] })).toThrow();
  });

  test('error carries retryable', () => {
    expect(() => checkPayload('error', { message: 'boom' })).toThrow();
    expect(() => checkPayload('error', { message: 'boom', retryable: false })).not.toThrow();
  });

  test('level_finished needs level_id, ok, attempt, duration_ms, cost_usd, output_preview; provider/model optional', () => {
    const gate = {
      level_id: 'j/L3.verifier/1',
      ok: true,
      attempt: 1,
      duration_ms: 5,
      cost_usd: 0,
      output_preview: '',
      verdict: 'pass',
    };
    expect(checkPayload('level_finished', gate)).not.toHaveProperty('provider');
    expect(() => checkPayload('level_finished', { ok: true, attempt: 1 })).toThrow();
    const { level_id: _levelId, ...unattributed } = gate;
    expect(() => checkPayload('level_finished', unattributed)).toThrow();
    expect(() => checkPayload('level_finished', { ...gate, deterministic: false })).toThrow();
  });

  test('routing_decision names level_id, provider, model (may be empty), tier and candidates', () => {
    const decision = { level_id: 'j/L1.team_lead/1', provider: 'demo', model: '', tier: 'free', model_candidates: [] };
    expect(checkPayload('routing_decision', decision)).toEqual(decision);
    expect(() => checkPayload('routing_decision', { provider: 'demo', model: 'm' })).toThrow();
  });

  test('kinds without a contract are accepted as they are', () => {
    expect(checkPayload('a_future_kind', { anything: [1, 2] })).toEqual({ anything: [1, 2] });
  });
});

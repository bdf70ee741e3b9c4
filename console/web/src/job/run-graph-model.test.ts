import { describe, expect, it } from '@jest/globals';
import { runGraphFromArchive, runGraphFromEvents, type RunEvent } from './run-graph-model';

const JOB = 'job-1';

/** Events in the order a product build with one failed build and a chained review emits them. */
function productBuild(): RunEvent[] {
  const events: RunEvent[] = [];
  const emit = (kind: string, role: string, payload: Record<string, unknown> = {}) =>
    events.push({
      job_id: JOB,
      sequence: events.length + 1,
      occurred_at: new Date(Date.UTC(2026, 0, 1, 0, 0, events.length)).toISOString(),
      kind,
      agent_role: role,
      payload,
    });
  const level = (role: string, id: string, attempt = 1, ok = true, extra: Record<string, unknown> = {}) => {
    emit('level_started', role, { level_id: `${JOB}/${id}`, role, attempt });
    emit('level_finished', role, {
      level_id: `${JOB}/${id}`,
      attempt,
      ok,
      duration_ms: 1000,
      cost_usd: 0.01,
      ...extra,
    });
  };
  emit('scenario_started', 'L1.team_lead', { scenario: 'product', levels: [] });
  level('L1.team_lead', 'L1.team_lead/prelude', 1, true, { deterministic: true });
  level('L1.team_lead', 'L1.team_lead/1', 1, true, { provider: 'demo', model: 'demo-1' });
  level('L2.architect', 'L2.architect/1');
  level('L4.executor', 'L4.executor/1');
  emit('build_verify_started', 'L3.build_verifier', { level_id: `${JOB}/L3.build_verifier/1`, attempt: 1 });
  emit('build_verify_failed', 'L3.build_verifier', { level_id: `${JOB}/L3.build_verifier/1`, step: 'build' });
  level('L4.executor', 'L4.executor/2', 2);
  emit('build_verify_started', 'L3.build_verifier', { level_id: `${JOB}/L3.build_verifier/2`, attempt: 2 });
  emit('build_verify_passed', 'L3.build_verifier', { level_id: `${JOB}/L3.build_verifier/2`, duration_ms: 5 });
  level('L3.verifier', 'L3.verifier/1', 1, false, { verdict: 'fail' });
  emit('gate_decision', 'L3.verifier', { level_id: `${JOB}/L3.verifier/1`, attempt: 1, decision: 'escalate' });
  level('L2.architect', 'L2.architect/2', 2);
  level('L2.release_manager', 'L2.release_manager/release', 1, true, { deterministic: true });
  emit('scenario_chained', 'L1.team_lead', { from: 'product', to: 'review' });
  emit('scenario_started', 'L1.team_lead', { scenario: 'review', levels: [] });
  level('L1.team_lead', 'L1.team_lead/2', 2);
  return events;
}

describe('the run graph built from a job’s events', () => {
  it('lists every step in the order it ran: prelude, levels, build checks, release, then the chained scenario', () => {
    const graph = runGraphFromEvents(productBuild());
    expect(graph.steps.map((s) => [s.id.slice(JOB.length + 1), s.kind, s.depth, s.scenario, s.run])).toEqual([
      ['L1.team_lead/prelude', 'prelude', 0, 'product', 1],
      // Runs are counted per kind: the prelude is not the team lead's first run.
      ['L1.team_lead/1', 'level', 0, 'product', 1],
      ['L2.architect/1', 'level', 1, 'product', 1],
      ['L4.executor/1', 'level', 3, 'product', 1],
      ['L3.build_verifier/1', 'build_check', 2, 'product', 1],
      ['L4.executor/2', 'level', 3, 'product', 2],
      ['L3.build_verifier/2', 'build_check', 2, 'product', 2],
      ['L3.verifier/1', 'level', 2, 'product', 1],
      ['L2.architect/2', 'level', 1, 'product', 2],
      ['L2.release_manager/release', 'release', 1, 'product', 1],
      // The review's team lead is its scenario's first run, not "attempt 2".
      ['L1.team_lead/2', 'level', 0, 'review', 1],
    ]);
    expect(graph.scenarios).toEqual(['product', 'review']);
    expect(graph.steps.find((s) => s.id.endsWith('L1.team_lead/1'))?.model).toBe('demo/demo-1');
  });

  it('names how each step led to the next: a failed build retries, a failed verification escalates, a chain', () => {
    const kinds = runGraphFromEvents(productBuild()).links.map((l) => l.kind);
    expect(kinds).toEqual([
      'handoff',
      'handoff',
      'handoff',
      'handoff',
      'retry',
      'handoff',
      'handoff',
      'escalate',
      'handoff',
      'chain',
    ]);
  });

  it('shows a step running until it finishes, and cancelled or interrupted when the job ends around it', () => {
    const events = productBuild();
    const last = runGraphFromEvents(events.slice(0, -1));
    expect(last.ended).toBe(false);
    expect(last.steps.at(-1)).toMatchObject({ id: `${JOB}/L1.team_lead/2`, state: 'running' });
    const done = runGraphFromEvents(events);
    expect(done.steps.at(-1)?.state).toBe('ok');
    expect(done.steps.find((s) => s.id.endsWith('L3.verifier/1'))).toMatchObject({ state: 'failed', verdict: 'fail' });
    expect(done.steps.find((s) => s.id.endsWith('L3.build_verifier/1'))).toMatchObject({ state: 'failed' });

    const cancelled = [
      ...events.slice(0, -1),
      {
        job_id: JOB,
        sequence: 999,
        occurred_at: '2026-01-01T01:00:00.000Z',
        kind: 'error',
        agent_role: 'L1.team_lead',
        payload: { code: 'cancelled', message: 'cancelled' },
      },
    ];
    // The level tree's word for the same step: a cancel leaves it cancelled, any other end interrupted.
    expect(runGraphFromEvents(cancelled).steps.at(-1)?.state).toBe('cancelled');
    const failed = cancelled.map((e) =>
      e.kind === 'error' ? { ...e, payload: { code: 'job_failed', message: 'x' } } : e,
    );
    expect(runGraphFromEvents(failed).steps.at(-1)?.state).toBe('interrupted');
    // The job row can say the job ended before its terminal event reaches the stream.
    expect(runGraphFromEvents(events.slice(0, -1), 'cancelled').steps.at(-1)?.state).toBe('cancelled');
    expect(runGraphFromEvents(events.slice(0, -1), 'cancelled').ended).toBe(true);
  });

  it('grows as events arrive, in whatever order a batch holds them', () => {
    const events = productBuild();
    const counts = [4, 12, 20, events.length].map((n) => runGraphFromEvents(events.slice(0, n)).steps.length);
    expect(counts).toEqual([2, 6, 9, 11]);
    expect(runGraphFromEvents([...events].reverse()).steps).toEqual(runGraphFromEvents(events).steps);
  });
});

describe('the archived run graph', () => {
  it('is the same model, every open step interrupted', () => {
    const graph = runGraphFromArchive({
      scenarios: ['build'],
      edges: [{ from: 'j/L1.team_lead/1', to: 'j/L3.verifier/1', kind: 'handoff' }],
      levels: [
        {
          level_id: 'j/L1.team_lead/1',
          role: 'L1.team_lead',
          scenario: 'build',
          ok: true,
          verdict: null,
          duration_ms: 10,
          cost_usd: 0,
          provider: null,
          model: null,
        },
        {
          level_id: 'j/L3.verifier/1',
          role: 'L3.verifier',
          scenario: 'build',
          ok: null,
          verdict: null,
          duration_ms: null,
          cost_usd: 0,
          provider: null,
          model: null,
        },
      ],
    });
    expect(graph.steps.map((s) => [s.depth, s.state])).toEqual([
      [0, 'ok'],
      [2, 'interrupted'],
    ]);
    expect(graph.links).toEqual([{ from: 'j/L1.team_lead/1', to: 'j/L3.verifier/1', kind: 'handoff' }]);
  });
});

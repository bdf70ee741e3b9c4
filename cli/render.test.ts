import { stripVTControlCharacters } from 'node:util';
import type { EventEnvelope } from '../events/envelope';
import { renderEvent } from './render';

const plain = { color: false };
function event(kind: string, payload: Record<string, unknown>, role = 'L4.executor'): EventEnvelope {
  return {
    schema_version: '1',
    job_id: 'job-1',
    workflow_id: 'wf-1',
    prompt_id: 'pt-1',
    agent_role: role,
    sequence: 1,
    occurred_at: '2026-11-21T00:00:00.000Z',
    kind,
    payload,
  };
}

describe('keel job rendering', () => {
  test('shows level progress, files and the final summary', () => {
    expect(renderEvent(event('routing_decision', { provider: 'demo', model: 'keel-demo', tier: 'free' }), plain)).toBe(
      'L4.executor        → demo/keel-demo [free]',
    );
    const demo = { provider: 'demo', model: 'keel-demo', model_display_name: 'offline demo model', tier: 'free' };
    expect(renderEvent(event('routing_decision', demo), plain)).toBe(
      'L4.executor        → demo/keel-demo (offline demo model) [free]',
    );
    expect(renderEvent(event('file_created', { path: 'hello.md', size_bytes: 33 }), plain)).toBe(
      'L4.executor        + hello.md (33 bytes)',
    );
    expect(
      renderEvent(event('level_finished', { ok: true, duration_ms: 12, output_preview: 'Wrote hello.md.' }), plain),
    ).toBe('L4.executor        ✓ 12 ms  Wrote hello.md.');
    expect(
      renderEvent(
        event('final', { summary: 'done', agent_message: 'Wrote hello.md.', created_files: ['hello.md'] }),
        plain,
      ),
    ).toBe('✔ final  done\n  files: hello.md\n  Wrote hello.md.');
    expect(renderEvent(event('error', { message: 'boom', retryable: true }), plain)).toBe('✖ error  boom (retryable)');
  });

  test('says how an approval ended and each step of a wait for a person', () => {
    const wait = { waiting_for: 'approval', approval_id: 'ap-1', text: 'write src/a.ts', waited_seconds: 3600 };
    expect(
      renderEvent(
        event('approval_decided', {
          approval_id: 'ap-1',
          decision: 'approve',
          decided_by: 'policy:cheap-docs',
          rule_id: 'cheap-docs',
          action: 'write docs/a.md',
        }),
        plain,
      ),
    ).toBe('L4.executor        approved by policy rule cheap-docs: write docs/a.md (ap-1)');
    expect(renderEvent(event('reminder_sent', wait), plain)).toBe(
      'L4.executor        ⏰ reminder: approval "write src/a.ts" (ap-1) still unanswered after 3600 s',
    );
    expect(renderEvent(event('escalated', { ...wait, to: 'role:leads' }), plain)).toBe(
      'L4.executor        ⇧ escalated to role:leads: approval "write src/a.ts" (ap-1) unanswered after 3600 s',
    );
    expect(
      renderEvent(event('timed_out', { waiting_for: 'ask_user', text: 'Which tone?', answer: 'formal' }), plain),
    ).toBe('L4.executor        ⌛ timed out: question "Which tone?" went on with the default "formal"');
  });

  test('skips bookkeeping and gives unknown kinds a generic row', () => {
    expect(renderEvent(event('node_started', {}), plain)).toBeUndefined();
    expect(renderEvent(event('a_future_kind', { url: 'x' }), plain)).toBe('L4.executor        · a_future_kind');
    expect(renderEvent(event('vercel_deployed', { url: 'https://x.vercel.app' }), plain)).toBe(
      'L4.executor        deployed: https://x.vercel.app',
    );
  });

  test("shows a verifier's verdict as a word, not its JSON output", () => {
    const verdict = {
      ok: true,
      attempt: 1,
      duration_ms: 5,
      verdict: 'fail',
      output_preview: '{"verdict":"fail","deltas":["x"]}',
    };
    expect(renderEvent(event('level_finished', verdict, 'L3.verifier'), plain)).toBe(
      'L3.verifier        ✓ 5 ms  verdict: fail',
    );
  });

  test('numbers the attempts of a retried level, not the first', () => {
    const run = (attempt: number) =>
      renderEvent(event('level_finished', { ok: true, attempt, duration_ms: 7, output_preview: 'Wrote a.md.' }), plain);
    expect(run(1)).toBe('L4.executor        ✓ 7 ms  Wrote a.md.');
    expect(run(2)).toBe('L4.executor        ✓ 7 ms (attempt 2)  Wrote a.md.');
  });

  test('cuts a long preview to the terminal width and keeps roles in one column', () => {
    const long = { ok: true, duration_ms: 97, output_preview: `L1.team_lead: ${'plan '.repeat(60)}\nsecond line` };
    const line = renderEvent(event('level_finished', long, 'L2.release_manager'), { color: false, width: 60 })!;
    expect([...line]).toHaveLength(60);
    expect(line.startsWith('L2.release_manager ✓ 97 ms  L1.team_lead: plan plan')).toBe(true);
    expect(line.endsWith('…')).toBe(true);
    expect(line).not.toContain('\n');
    // Colour codes take no columns.
    const coloured = renderEvent(event('level_finished', long, 'L2.release_manager'), { color: true, width: 60 })!;
    expect([...stripVTControlCharacters(coloured)]).toHaveLength(60);
    const gate = renderEvent(event('gate_decision', { decision: 'retry', deltas: ['add a line'] }, 'job'), plain)!;
    expect(gate.indexOf('retry')).toBe(line.indexOf('✓'));
  });

  test('colours only when asked', () => {
    expect(renderEvent(event('file_created', { path: 'a', size_bytes: 1 }), { color: true })).toContain('\u001b[');
  });
});

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
      'L4.executor    → demo/keel-demo [free]',
    );
    const demo = { provider: 'demo', model: 'keel-demo', model_display_name: 'offline demo model', tier: 'free' };
    expect(renderEvent(event('routing_decision', demo), plain)).toBe(
      'L4.executor    → demo/keel-demo (offline demo model) [free]',
    );
    expect(renderEvent(event('file_created', { path: 'hello.md', size_bytes: 33 }), plain)).toBe(
      'L4.executor    + hello.md (33 bytes)',
    );
    expect(
      renderEvent(event('level_finished', { ok: true, duration_ms: 12, output_preview: 'Wrote hello.md.' }), plain),
    ).toBe('L4.executor    ✓ 12 ms  Wrote hello.md.');
    expect(
      renderEvent(
        event('final', { summary: 'done', agent_message: 'Wrote hello.md.', created_files: ['hello.md'] }),
        plain,
      ),
    ).toBe('✔ final  done\n  files: hello.md\n  Wrote hello.md.');
    expect(renderEvent(event('error', { message: 'boom', retryable: true }), plain)).toBe('✖ error  boom (retryable)');
  });

  test('skips bookkeeping and gives unknown kinds a generic row', () => {
    expect(renderEvent(event('node_started', {}), plain)).toBeUndefined();
    expect(renderEvent(event('a_future_kind', { url: 'x' }), plain)).toBe('L4.executor    · a_future_kind');
    expect(renderEvent(event('vercel_deployed', { url: 'https://x.vercel.app' }), plain)).toBe(
      'L4.executor    deployed: https://x.vercel.app',
    );
  });

  test('colours only when asked', () => {
    expect(renderEvent(event('file_created', { path: 'a', size_bytes: 1 }), { color: true })).toContain('\u001b[');
  });
});

import type { EventEnvelope } from './envelope';
import { parseEvent } from './known-event';

const envelope = (kind: string, payload: Record<string, unknown>): EventEnvelope => ({
  schema_version: '1',
  job_id: 'job-1',
  workflow_id: 'wf-1',
  prompt_id: 'pt-1',
  agent_role: 'L2.architect',
  sequence: 7,
  occurred_at: '2026-11-28T00:00:00.000Z',
  kind,
  payload,
});

test('a kind with a contract is known, its payload typed by the contract', () => {
  const event = parseEvent(envelope('ask_user', { call_id: 'call-1', question: 'formal?', level_id: 'job-1/L2/1' }));
  expect(event.known).toBe(true);
  if (event.known && event.kind === 'ask_user') {
    const callId: string = event.payload.call_id;
    expect(callId).toBe('call-1');
  }
});

test('a kind without a contract, or a payload that does not fit one, is kept as a generic row', () => {
  expect(parseEvent(envelope('someone_elses_kind', { x: 1 }))).toMatchObject({
    known: false,
    kind: 'someone_elses_kind',
  });
  expect(parseEvent(envelope('ask_user', { question: 'no call id' }))).toMatchObject({
    known: false,
    kind: 'ask_user',
    payload: { question: 'no call id' },
  });
});

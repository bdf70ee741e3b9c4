import { expect, test } from '@jest/globals';
import type { AgentEvent } from '../schemas';
import { readEvent } from './events';
import { peopleAsks } from './people-asks';

let sequence = 0;
const event = (kind: string, payload: Record<string, unknown>, role = 'L2.architect') =>
  readEvent({
    job_id: 'job-1',
    agent_role: role,
    sequence: (sequence += 1),
    occurred_at: '2026-11-28T07:00:00.000Z',
    kind,
    payload,
  } satisfies AgentEvent);

test('questions, approvals and human tasks are read from the events in the order asked', () => {
  const events = [
    event('ask_user', { call_id: 'c1', question: 'Which colour?', level_id: 'job-1/L2.architect/1' }),
    event('tool_result', { call_id: 'c1', preview: 'blue', level_id: 'job-1/L2.architect/1' }),
    event('approval_requested', {
      approval_id: 'ap-1',
      call_id: 'c2',
      action: 'deploy',
      reason: 'ship it',
      level_id: 'job-1/L3.executor/1',
    }),
    event(
      'human_task_assigned',
      {
        task_id: 'ht-1',
        title: 'Add the Vercel token',
        detail: 'Put it in the secrets store',
        assignee: 'u-1',
        due_at: null,
        state: 'open',
        level_id: 'job-1/L2.release_manager/1',
      },
      'L2.release_manager',
    ),
    event('ui_action', {
      level_id: 'job-1/L2.release_manager/1',
      action: 'open_task',
      target: 'ht-1',
      label: 'Add the Vercel token',
    }),
  ];
  const { asks, ended } = peopleAsks(events);
  expect(ended).toBe(false);
  expect(asks.map((a) => a.kind)).toEqual(['question', 'approval', 'task']);
  expect(asks[0]).toMatchObject({ callId: 'c1', question: 'Which colour?', resulted: true });
  expect(asks[1]).toMatchObject({ approvalId: 'ap-1', action: 'deploy', resulted: false });
  expect(asks[2]).toMatchObject({
    taskId: 'ht-1',
    title: 'Add the Vercel token',
    assignee: 'u-1',
    role: 'L2.release_manager',
  });
});

test('a terminal event ends every ask', () => {
  const { ended } = peopleAsks([
    event('ask_user', { call_id: 'c9', question: 'Still there?', level_id: 'job-1/L2.architect/1' }),
    event('error', { code: 'cancelled', message: 'cancelled by a person', retryable: false }),
  ]);
  expect(ended).toBe(true);
});

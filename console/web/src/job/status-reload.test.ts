import { expect, test } from '@jest/globals';
import { reloadsJobRow, reloadsJobRowAfter } from './status-reload';

test('every way a job waits for a person reloads the row, a human task included', () => {
  for (const kind of ['ask_user', 'approval_requested', 'human_task_assigned']) {
    expect(reloadsJobRow(kind, 'running')).toBe(true);
  }
});

test('a terminal event reloads the row', () => {
  expect(reloadsJobRow('final', 'running')).toBe(true);
  expect(reloadsJobRow('error', 'paused')).toBe(true);
});

test('a queued or paused row is read again on the next event; a running one is not on ordinary events', () => {
  expect(reloadsJobRow('level_started', 'queued')).toBe(true);
  expect(reloadsJobRow('level_started', 'paused')).toBe(true);
  expect(reloadsJobRow('level_started', 'running')).toBe(false);
  expect(reloadsJobRow('ui_action', 'running')).toBe(false);
  expect(reloadsJobRow(undefined, 'queued')).toBe(false);
});

test('a status-changing event followed by others in the same batch still reloads the row', () => {
  const batch = [
    { sequence: 10, kind: 'vercel_deploy_failed' },
    { sequence: 11, kind: 'human_task_assigned' },
    { sequence: 12, kind: 'ui_action' },
  ];
  expect(reloadsJobRowAfter(batch, 9, 'running')).toBe(true);
  // Already seen: the same batch does not reload the row again.
  expect(reloadsJobRowAfter(batch, 12, 'running')).toBe(false);
  expect(reloadsJobRowAfter(batch, 11, 'running')).toBe(false);
});

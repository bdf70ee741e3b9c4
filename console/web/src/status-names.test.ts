import { expect, test } from '@jest/globals';
import { stateName } from './status-names';

test("a workflow's pending and a job's paused read the same", () => {
  expect(stateName('pending')).toBe('paused');
  expect(stateName('paused')).toBe('paused');
});

test('every other status reads as the API says it', () => {
  for (const status of ['queued', 'running', 'processing', 'completed', 'failed', 'cancelled']) {
    expect(stateName(status)).toBe(status);
  }
});

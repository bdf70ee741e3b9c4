import { expect, test } from '@jest/globals';
import { countOf } from './plural';
import { creatorLabel, runDuration } from './run-facts';

test('counts read as English: 1 workflow, 0 and 2 workflows', () => {
  expect(countOf(1, 'workflow')).toBe('1 workflow');
  expect(countOf(0, 'workflow')).toBe('0 workflows');
  expect(countOf(2, 'workflow')).toBe('2 workflows');
  expect(countOf(10_000, 'workflow')).toBe('10,000 workflows');
});

test('a run lasts from its start to its end, or so far while it runs; unstarted is a dash', () => {
  const start = '2026-01-01T00:00:00.000000Z';
  expect(runDuration({ started_at: start, finished_at: '2026-01-01T00:01:30.000000Z' }, 0)).toBe('1 min 30 s');
  expect(runDuration({ started_at: start, finished_at: null }, Date.parse(start) + 5_000)).toBe('5.0 s so far');
  expect(runDuration({ started_at: null, finished_at: null }, 0)).toBe('—');
});

test('the reader is "you", anyone else their name or email', () => {
  const people = new Map([['u2', { id: 'u2', name: null, email: 'ada@example.test' }]]);
  expect(creatorLabel('u1', 'u1', people)).toBe('you');
  expect(creatorLabel('u2', 'u1', people)).toBe('ada@example.test');
  // While the lookup is under way, the id.
  expect(creatorLabel('u2', 'u1', undefined)).toBe('u2');
});

import { CarryOver } from './fork';
import type { CarriedLevel } from './definitions';

const carried = (role: string, attempt: number): CarriedLevel => ({
  sourceLevelRunId: `job-src/${role}/${attempt}`,
  role,
  attempt,
  result: { role, ok: true, output: role, deltas: [], createdFiles: [], costUsd: 0, reasoningTokens: 0 },
});

test('carried level runs are taken in order, each by its role and attempt', () => {
  const carry = new CarryOver([carried('L1.team_lead', 1), carried('L4.executor', 1), carried('L3.verifier', 1)]);
  expect(carry.take('L1.team_lead', 1)?.sourceLevelRunId).toBe('job-src/L1.team_lead/1');
  expect(carry.take('L4.executor', 1)?.sourceLevelRunId).toBe('job-src/L4.executor/1');
  expect(carry.take('L3.verifier', 1)?.sourceLevelRunId).toBe('job-src/L3.verifier/1');
  // Past the fork point every level runs.
  expect(carry.take('L4.executor', 2)).toBeUndefined();
});

test('a level run that is not the next carried one ends the carry-over for good', () => {
  const carry = new CarryOver([carried('L1.team_lead', 1), carried('L2.architect', 1)]);
  expect(carry.take('L1.team_lead', 1)).toBeDefined();
  expect(carry.take('L2.planner', 1)).toBeUndefined();
  expect(carry.take('L2.architect', 1)).toBeUndefined();
});

test('a fork from the start carries nothing', () => {
  expect(new CarryOver([]).take('L1.team_lead', 1)).toBeUndefined();
});

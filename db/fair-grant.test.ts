import { chooseGrants, type GrantInput, type QueuedJob } from './fair-grant';

const job = (jobId: string, orgId: string, seq: number, priority = 0): QueuedJob => ({ jobId, orgId, seq, priority });

function input(over: Partial<GrantInput>): GrantInput {
  return {
    queued: [],
    running: new Map(),
    lastGrant: new Map(),
    orgLimit: () => undefined,
    totalLimit: undefined,
    fair: true,
    ...over,
  };
}

describe('chooseGrants', () => {
  const backlog = [
    ...Array.from({ length: 6 }, (_, i) => job(`a${i}`, 'A', i)),
    job('b0', 'B', 10),
    job('b1', 'B', 11),
  ];

  test("fair: org B's first job takes the next free slot although org A's backlog was there first", () => {
    const grants = chooseGrants(input({ queued: backlog, running: new Map([['A', 2]]), totalLimit: 3 }));
    expect(grants).toEqual(['b0']);
  });

  test('fair: free slots alternate between orgs with waiting jobs', () => {
    expect(chooseGrants(input({ queued: backlog, totalLimit: 4 }))).toEqual(['a0', 'b0', 'a1', 'b1']);
  });

  test('fairness off: plain enqueue order, so B waits behind all of A', () => {
    expect(chooseGrants(input({ queued: backlog, running: new Map([['A', 2]]), totalLimit: 3, fair: false }))).toEqual([
      'a0',
    ]);
  });

  test("an org at its limit gets nothing; another org's jobs go on", () => {
    const grants = chooseGrants(input({ queued: backlog, running: new Map([['A', 2]]), orgLimit: () => 2 }));
    expect(grants).toEqual(['b0', 'b1']);
  });

  test("an org's own queue: higher priority first, then enqueue order", () => {
    const queued = [job('low', 'A', 1), job('high', 'A', 2, 5), job('mid', 'A', 3, 1), job('mid2', 'A', 4, 1)];
    expect(chooseGrants(input({ queued, totalLimit: 4 }))).toEqual(['high', 'mid', 'mid2', 'low']);
  });

  test('ties of running jobs go to the org granted longest ago', () => {
    const queued = [job('a', 'A', 1), job('b', 'B', 2)];
    const lastGrant = new Map([
      ['A', 100],
      ['B', 50],
    ]);
    expect(chooseGrants(input({ queued, lastGrant, totalLimit: 1 }))).toEqual(['b']);
  });

  test('nothing is granted past the total limit', () => {
    expect(chooseGrants(input({ queued: backlog, running: new Map([['C', 3]]), totalLimit: 3 }))).toEqual([]);
  });
});

import { chooseGrants, projectKey, type GrantInput, type QueuedJob } from './fair-grant';

const job = (jobId: string, orgId: string, seq: number, priority = 0, projectSlug?: string): QueuedJob => ({
  jobId,
  orgId,
  seq,
  priority,
  projectSlug,
});

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

  describe('per-project limits', () => {
    // Org A's queue: two jobs of project p (first), then one of q; org B's one job has no project.
    const queued = [job('p1', 'A', 1, 0, 'p'), job('p2', 'A', 2, 0, 'p'), job('q1', 'A', 3, 0, 'q'), job('b1', 'B', 4)];
    const projectLimit = (org: string, slug: string) => (org === 'A' && slug === 'p' ? 1 : undefined);

    test("a project at its limit is passed over: its org's job of another project, and other orgs, take the slots", () => {
      const grants = chooseGrants(
        input({
          queued,
          running: new Map([['A', 1]]),
          runningByProject: new Map([[projectKey('A', 'p'), 1]]),
          projectLimit,
        }),
      );
      expect(grants).toEqual(['b1', 'q1']);
    });

    test('a project under its limit runs up to it, and no further, within one pass', () => {
      expect(chooseGrants(input({ queued, projectLimit }))).toEqual(['p1', 'b1', 'q1']);
    });

    test('fairness off: the oldest job that may run, skipping a project at its limit', () => {
      const grants = chooseGrants(
        input({
          queued,
          running: new Map([['A', 1]]),
          runningByProject: new Map([[projectKey('A', 'p'), 1]]),
          projectLimit,
          totalLimit: 2,
          fair: false,
        }),
      );
      expect(grants).toEqual(['q1']);
    });

    test('a project limit of 0 holds that project only', () => {
      const grants = chooseGrants(input({ queued, projectLimit: (_org, slug) => (slug === 'p' ? 0 : undefined) }));
      expect(grants).toEqual(['q1', 'b1']);
    });

    test('the same slug in another org is another project', () => {
      const other = [job('p1', 'A', 1, 0, 'p'), job('c1', 'C', 2, 0, 'p')];
      const grants = chooseGrants(
        input({ queued: other, runningByProject: new Map([[projectKey('A', 'p'), 1]]), projectLimit: () => 1 }),
      );
      expect(grants).toEqual(['c1']);
    });
  });
});

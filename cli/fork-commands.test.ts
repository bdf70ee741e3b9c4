import { forkPoint, renderComparison } from './fork-commands';
import type { Comparison } from './api';

const JOB = 'job-1234';

test('--from takes a sequence, a full level run id, or a role and attempt of the job', () => {
  expect(forkPoint(JOB, '0')).toEqual({ sequence: 0 });
  expect(forkPoint(JOB, '42')).toEqual({ sequence: 42 });
  expect(forkPoint(JOB, `${JOB}/L3.verifier/1`)).toEqual({ level_run_id: `${JOB}/L3.verifier/1` });
  expect(forkPoint(JOB, 'L3.verifier/2')).toEqual({ level_run_id: `${JOB}/L3.verifier/2` });
  for (const bad of ['yesterday', '-1', 'L3.verifier', '/1']) expect(() => forkPoint(JOB, bad)).toThrow('--from');
});

test('a comparison renders its relation, each differing file with its diff, and the level runs', () => {
  const side = (job_id: string, cost: number) => ({
    job_id,
    status: 'completed',
    level_run_id: null,
    manifest_sha256: null,
    levels_cost_usd: cost,
    levels_duration_ms: 0,
    billed_cost_usd: cost,
    forked_from: null,
    carried_level_ids: [],
  });
  const level = (cost: number, carried: boolean) => ({
    level_id: 'x',
    cost_usd: cost,
    duration_ms: 1500,
    verdict: null,
    model: null,
    carried_over: carried,
    source_level_id: null,
  });
  const compared: Comparison = {
    a: side('job-a', 0.5),
    b: side('job-b', 0.25),
    relation: 'b_forked_from_a',
    identical_workspaces: false,
    files: [
      {
        path: 'hello.md',
        change: 'changed',
        a: { sha256: 'a', size_bytes: 3 },
        b: { sha256: 'b', size_bytes: 4 },
        size_diff_bytes: 1,
        binary: false,
        diff: '--- a/hello.md\n+++ b/hello.md\n-old\n+new!\n',
      },
      { path: 'x.bin', change: 'added', a: null, b: { sha256: 'c', size_bytes: 6 }, size_diff_bytes: 6, binary: true },
    ],
    unchanged_files: 2,
    levels: [
      {
        role: 'L4.executor',
        attempt: 1,
        a: level(0.25, false),
        b: level(0.25, true),
        cost_diff_usd: 0,
        duration_diff_ms: 0,
      },
      { role: 'L3.verifier', attempt: 2, a: null, b: level(0, false), cost_diff_usd: null, duration_diff_ms: null },
    ],
    cost_diff_usd: -0.25,
    duration_diff_ms: 0,
  };
  const text = renderComparison(compared);
  expect(text).toContain('relation: b_forked_from_a');
  expect(text).toContain('files: 2 differ, 2 unchanged');
  expect(text).toContain('changed  hello.md (3 → 4 bytes)');
  expect(text).toContain('    +new!');
  expect(text).toContain('added    x.bin (binary, — → 6 bytes)');
  expect(text).toMatch(/L4\.executor\/1 +\$0\.2500 → \$0\.2500 +1\.5s → 1\.5s \(carried over in b\)/);
  expect(text).toMatch(/L3\.verifier\/2 +— → \$0\.0000/);
  expect(text).toContain('(-0.2500)');
});

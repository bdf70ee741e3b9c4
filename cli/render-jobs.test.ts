import { renderJobRows, type JobRow } from './render-jobs';

const row = (job: string, status: string, project: string | null): JobRow => ({
  job_id: job,
  status,
  updated_at: '2026-11-24T11:21:38.104000Z',
  workflow_id: 'wf-12',
  project_slug: project,
  scenario: 'build',
});

describe('keel jobs table', () => {
  test('aligns columns under a header, one job a line', () => {
    const lines = renderJobRows([row('job-a', 'completed', null), row('job-bbbb', 'running', 'site')], {
      color: false,
    }).split('\n');
    expect(lines).toEqual([
      'JOB       STATUS     UPDATED (UTC)        WORKFLOW  SCENARIO  PROJECT',
      'job-a     completed  2026-11-24 11:21:38  wf-12     build     -',
      'job-bbbb  running    2026-11-24 11:21:38  wf-12     build     site',
    ]);
  });

  test('cuts the last column to the width and says when there is nothing', () => {
    const table = renderJobRows([row('job-a', 'failed', 'a-very-long-project-slug-indeed')], {
      color: false,
      width: 70,
    });
    expect(table.split('\n').every((line) => [...line].length <= 70)).toBe(true);
    expect(table).toContain('a-very-lo');
    expect(table).toContain('…');
    expect(renderJobRows([], { color: false })).toBe('no jobs');
  });

  test("a job waiting for a slot shows its place in its org's queue", () => {
    const waiting = { ...row('job-q', 'queued', null), queue: { position: 3, reason: 'org_limit' } };
    const lines = renderJobRows([row('job-r', 'running', null), waiting], { color: false }).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'JOB    STATUS     UPDATED (UTC)        WORKFLOW  SCENARIO  PROJECT',
      'job-r  running    2026-11-24 11:21:38  wf-12     build     -',
      'job-q  queued #3  2026-11-24 11:21:38  wf-12     build     -',
    ]);
    expect(lines.at(-1)).toContain("N-th in its org's queue");
  });
});

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
});

import { describe, expect, it } from '@jest/globals';
import type { Workflow } from '../schemas';
import { anyActive, appendPage, compareWorkflows, mergeFirstPage } from './list-state';

function wf(id: string, updatedAt: string, status = 'completed'): Workflow {
  return {
    workflow_id: id,
    project_slug: null,
    created_by: 'u',
    updated_at: updatedAt,
    hidden: false,
    status,
    latest_job_id: null,
    title: id,
    title_set: false,
    created_at: null,
    started_at: null,
    finished_at: null,
    cost_usd: 0,
  };
}
const ids = (rows: Workflow[]) => rows.map((r) => r.workflow_id);

describe('the workflow list kept by the console', () => {
  it('orders as the server does: updated_at descending, then workflow_id descending byte-wise', () => {
    const rows = [wf('wf-10', 't1'), wf('wf-9', 't1'), wf('wf-2', 't2')].sort(compareWorkflows);
    expect(ids(rows)).toEqual(['wf-2', 'wf-9', 'wf-10']);
  });

  it('is active while any row is running, processing, queued or pending', () => {
    for (const status of ['running', 'processing', 'queued', 'pending']) {
      expect(anyActive([wf('wf-1', 't', 'completed'), wf('wf-2', 't', status)])).toBe(true);
    }
    expect(anyActive([wf('wf-1', 't', 'completed'), wf('wf-2', 't', 'failed'), wf('wf-3', 't', 'cancelled')])).toBe(
      false,
    );
  });

  it('appends a page without repeating a row that moved up meanwhile', () => {
    const loaded = [wf('wf-5', 't9'), wf('wf-4', 't4')];
    expect(ids(appendPage(loaded, [wf('wf-5', 't9'), wf('wf-3', 't3')]))).toEqual(['wf-5', 'wf-4', 'wf-3']);
  });

  it('folds a fresh first page in: a changed row moves up, rows past the page stay, a row gone from its range is dropped', () => {
    const loaded = [wf('wf-6', 't6'), wf('wf-5', 't5'), wf('wf-4', 't4'), wf('wf-3', 't3'), wf('wf-2', 't2')];
    // wf-3 changed (now newest); wf-5 was hidden elsewhere; the fresh page covers down to wf-4.
    const fresh = [wf('wf-3', 't9', 'running'), wf('wf-6', 't6'), wf('wf-4', 't4')];
    const merged = mergeFirstPage(loaded, fresh, false);
    expect(ids(merged)).toEqual(['wf-3', 'wf-6', 'wf-4', 'wf-2']);
    expect(merged[0]!.status).toBe('running');
  });

  it('replaces everything when the fresh page is the whole list', () => {
    expect(ids(mergeFirstPage([wf('wf-2', 't2'), wf('wf-1', 't1')], [wf('wf-1', 't3')], true))).toEqual(['wf-1']);
  });
});

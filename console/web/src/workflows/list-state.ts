import type { Workflow } from '../schemas';

/** Spec: "Workflow states known to be non-terminal". While one of these is loaded the list refetches every 2 s. */
export const ACTIVE_STATUSES = new Set(['running', 'processing', 'queued', 'pending']);
export const ACTIVE_REFETCH_MS = 2_000;
export const IDLE_REFETCH_MS = 6_000;
export const PAGE_SIZE = 20;
/** The next page is fetched when the end-of-list sentinel comes within this distance of the viewport. */
export const SENTINEL_MARGIN_PX = 120;

/** The server's order: `updated_at` descending, then `workflow_id` descending (both compared as the server sends them). */
export function compareWorkflows(a: Workflow, b: Workflow): number {
  if (a.updated_at !== b.updated_at) return a.updated_at < b.updated_at ? 1 : -1;
  if (a.workflow_id === b.workflow_id) return 0;
  return a.workflow_id < b.workflow_id ? 1 : -1;
}

export function anyActive(rows: readonly Workflow[]): boolean {
  return rows.some((row) => ACTIVE_STATUSES.has(row.status));
}

/** Pages appended as the person scrolls; a row already shown (it moved up meanwhile) is not shown twice. */
export function appendPage(rows: readonly Workflow[], page: readonly Workflow[]): Workflow[] {
  const seen = new Set(rows.map((row) => row.workflow_id));
  return [...rows, ...page.filter((row) => !seen.has(row.workflow_id))];
}

/**
 * Folds a fresh first page into the loaded rows. Every change moves a workflow's `updated_at`, so a changed workflow
 * sorts into the first page: refetching that one page keeps thousands of loaded rows current at the cost of one
 * request. Within the range the fresh page covers, it is the truth (a row missing there was hidden meanwhile);
 * when it is the whole list (no next cursor) it replaces everything.
 */
export function mergeFirstPage(rows: readonly Workflow[], page: readonly Workflow[], complete: boolean): Workflow[] {
  if (complete) return [...page];
  const last = page[page.length - 1];
  if (!last) return [...rows];
  const fresh = new Set(page.map((row) => row.workflow_id));
  const kept = rows.filter((row) => !fresh.has(row.workflow_id) && compareWorkflows(row, last) > 0);
  return [...page, ...kept].sort(compareWorkflows);
}

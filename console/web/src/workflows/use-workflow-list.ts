import { useCallback, useEffect, useRef, useState } from 'react';
import { call, isAbort } from '../api';
import { WorkflowPage, type Workflow } from '../schemas';
import { ACTIVE_REFETCH_MS, IDLE_REFETCH_MS, PAGE_SIZE, anyActive, appendPage, mergeFirstPage } from './list-state';

export interface ListFilter {
  project: string;
  includeHidden: boolean;
  /** A workflow state (`running`, `pending`, …) or '' for all. */
  status: string;
  /** Text the server finds in titles and prompts; '' for none. */
  search: string;
}

export interface WorkflowList {
  rows: Workflow[];
  nextCursor: string | null;
  loaded: boolean;
  loadingMore: boolean;
  error: unknown;
  /** How many times the first page was read (the first load included), and the wait before the next read. */
  refreshes: number;
  nextRefreshMs: number;
  loadMore: () => void;
  /** A local change (hide/unhide, a new title) shown at once; the next refetch confirms it. */
  patch: (workflowId: string, change: Partial<Workflow>) => void;
}

function pagePath(filter: ListFilter, cursor: string | null): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  if (filter.project) query.set('project_slug', filter.project);
  if (filter.includeHidden) query.set('include_hidden', 'true');
  if (filter.status) query.set('status', filter.status);
  if (filter.search) query.set('q', filter.search);
  return `/api/v1/workflows?${query.toString()}`;
}

/**
 * The workflow list as the spec suggests a client keep it: pages appended on demand, and the first page refetched
 * every 2 s while any loaded workflow is active, else every 6 s. Plain timers keep running in a background tab
 * (browsers may stretch them to once a second there, which the 2 s cadence survives). The caller keys the component
 * that uses it by the filter, so a new filter starts from an empty list.
 */
export function useWorkflowList(filter: ListFilter): WorkflowList {
  const [rows, setRows] = useState<Workflow[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [refreshes, setRefreshes] = useState(0);
  const [nextRefreshMs, setNextRefreshMs] = useState(IDLE_REFETCH_MS);
  const rowsRef = useRef(rows);
  useEffect(() => {
    rowsRef.current = rows;
  }, [rows]);
  const busy = useRef(false);
  const key = `${filter.project}|${filter.includeHidden}|${filter.status}|${filter.search}`;

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;

    const fetchFirst = async () => {
      try {
        const page = await call(pagePath(filter, null), WorkflowPage, { signal: controller.signal });
        if (first) {
          setRows(page.workflows);
          setNextCursor(page.next_cursor);
          rowsRef.current = page.workflows;
          first = false;
        } else {
          const merged = mergeFirstPage(rowsRef.current, page.workflows, page.next_cursor === null && !hasMoreLoaded());
          rowsRef.current = merged;
          setRows(merged);
        }
        setLoaded(true);
        setError(null);
      } catch (err) {
        if (isAbort(err)) return;
        setError(err);
      }
      if (controller.signal.aborted) return;
      const wait = anyActive(rowsRef.current) ? ACTIVE_REFETCH_MS : IDLE_REFETCH_MS;
      timer = setTimeout(() => void fetchFirst(), wait);
      setNextRefreshMs(wait);
      setRefreshes((n) => n + 1);
    };
    // More rows than one page loaded means the list has more pages than the first, whatever the first says now.
    const hasMoreLoaded = () => rowsRef.current.length > PAGE_SIZE;

    void fetchFirst();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // The filter object is rebuilt every render; `key` is its identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const loadMore = useCallback(() => {
    if (!nextCursor || busy.current) return;
    busy.current = true;
    setLoadingMore(true);
    call(pagePath(filter, nextCursor), WorkflowPage)
      .then(
        (page) => {
          setRows((current) => appendPage(current, page.workflows));
          setNextCursor(page.next_cursor);
        },
        (err: unknown) => setError(err),
      )
      .finally(() => {
        busy.current = false;
        setLoadingMore(false);
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nextCursor, key]);

  const patch = useCallback((workflowId: string, change: Partial<Workflow>) => {
    setRows((current) => current.map((row) => (row.workflow_id === workflowId ? { ...row, ...change } : row)));
  }, []);

  return { rows, nextCursor, loaded, loadingMore, error, refreshes, nextRefreshMs, loadMore, patch };
}

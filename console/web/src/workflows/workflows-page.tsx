import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError, call } from '../api';
import { LoadProblem, Loading, ErrorNote } from '../problem';
import { Hidden, ProjectList, type Workflow } from '../schemas';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { ACTIVE_REFETCH_MS, SENTINEL_MARGIN_PX } from './list-state';
import { StatusBadge } from './status-badge';
import { useWorkflowList } from './use-workflow-list';
import { virtualRowStyle } from '../virtual-row';

const ROW_HEIGHT = 52;

export function WorkflowsPage() {
  const [params, setParams] = useSearchParams();
  const project = params.get('project') ?? '';
  const includeHidden = params.get('hidden') === '1';
  const projects = useResource('/api/v1/projects', ProjectList);

  function setFilter(name: string, value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  }

  return (
    <section>
      <div className="page-head">
        <h1>Workflows</h1>
        <Link className="button" to="/runs/new">
          New run
        </Link>
      </div>
      <div className="filters">
        <label htmlFor="filter-project">Project</label>
        <select id="filter-project" value={project} onChange={(e) => setFilter('project', e.target.value)}>
          <option value="">All projects</option>
          {(projects.data?.projects ?? []).map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.name}
            </option>
          ))}
        </select>
        <label className="choice">
          <input
            type="checkbox"
            checked={includeHidden}
            onChange={(e) => setFilter('hidden', e.target.checked ? '1' : '')}
          />
          Show hidden
        </label>
      </div>
      <WorkflowRows key={`${project}|${includeHidden}`} project={project} includeHidden={includeHidden} />
    </section>
  );
}

function WorkflowRows({ project, includeHidden }: { project: string; includeHidden: boolean }) {
  const list = useWorkflowList({ project, includeHidden });
  const [actionError, setActionError] = useState<unknown>(null);

  async function toggleHidden(row: Workflow) {
    setActionError(null);
    const action = row.hidden ? 'unhide' : 'hide';
    try {
      const answer = await call(`/api/v1/workflows/${encodeURIComponent(row.workflow_id)}/${action}`, Hidden, {
        method: 'POST',
        body: {},
      });
      list.patch(row.workflow_id, { hidden: answer.hidden });
    } catch (err) {
      setActionError(err);
    }
  }

  const visible = includeHidden ? list.rows : list.rows.filter((row) => !row.hidden);

  return (
    <>
      {list.loaded ? (
        <p className="hint refresh" data-refreshes={list.refreshes} data-next-refresh-ms={list.nextRefreshMs}>
          {list.nextRefreshMs === ACTIVE_REFETCH_MS
            ? `Live: refreshing every ${list.nextRefreshMs / 1000} s while runs are active.`
            : `Refreshing every ${list.nextRefreshMs / 1000} s.`}
        </p>
      ) : null}
      <ErrorNote error={actionError} />
      {/* A refetch refused because the session ended sends the person to sign in, like any page load. */}
      {list.error && (!list.loaded || (list.error instanceof ApiError && list.error.status === 401)) ? (
        <LoadProblem error={list.error} />
      ) : null}
      {!list.loaded && !list.error ? <Loading what="workflows" /> : null}
      {list.loaded && visible.length === 0 ? (
        <p className="empty">
          No workflows yet{project ? ' in this project' : ''}. <Link to="/runs/new">Start a run</Link>.
        </p>
      ) : null}
      {visible.length > 0 ? <Rows rows={visible} onToggleHidden={(row) => void toggleHidden(row)} /> : null}
      <Sentinel onNear={list.loadMore} active={list.nextCursor !== null} rowsLoaded={list.rows.length} />
      {list.loadingMore ? <Loading what="more workflows" /> : null}
      {list.loaded && list.nextCursor === null && visible.length > 0 ? (
        <p className="hint end-of-list">End of the list ({visible.length} workflows).</p>
      ) : null}
    </>
  );
}

function Rows({ rows, onToggleHidden }: { rows: Workflow[]; onToggleHidden: (row: Workflow) => void }) {
  // The list's distance from the top of the page, measured once it is in the document.
  const [scrollMargin, setScrollMargin] = useState(0);
  const container = useCallback((element: HTMLUListElement | null) => {
    if (element) setScrollMargin(element.offsetTop);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin,
  });
  return (
    <ul
      ref={container}
      className="wf-list"
      aria-label="Workflows"
      style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
    >
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index]!;
        return (
          <li
            key={row.workflow_id}
            className="wf-row"
            aria-setsize={rows.length}
            aria-posinset={item.index + 1}
            style={virtualRowStyle(ROW_HEIGHT, item.start - scrollMargin)}
          >
            <Link to={`/workflows/${encodeURIComponent(row.workflow_id)}`} className="wf-id">
              {row.workflow_id}
            </Link>
            <StatusBadge status={row.status} />
            <span className="wf-project">{row.project_slug ?? 'no project'}</span>
            <span className="wf-updated">
              <Time iso={row.updated_at} />
            </span>
            {row.latest_job_id ? (
              <Link to={`/jobs/${encodeURIComponent(row.latest_job_id)}`} className="wf-job">
                latest job
              </Link>
            ) : (
              <span className="wf-job">no job</span>
            )}
            <button type="button" className="small" onClick={() => onToggleHidden(row)}>
              {row.hidden ? 'Unhide' : 'Hide'}
              <span className="visually-hidden"> {row.workflow_id}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** The end-of-list marker: within 120 px of the viewport it asks for the next page (again after each page while near). */
function Sentinel({ onNear, active, rowsLoaded }: { onNear: () => void; active: boolean; rowsLoaded: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !active) return;
    // Observed afresh after each page: an observer reports changes only, but a new observation always reports where
    // the sentinel is now. A sentinel still near once a page lands, or near again before the observer saw it pushed
    // away (a person scrolling to the end as the page renders), asks for the next page.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) onNear();
      },
      { rootMargin: `0px 0px ${SENTINEL_MARGIN_PX}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [rowsLoaded, active, onNear]);
  return <div ref={ref} className="sentinel" aria-hidden="true" />;
}

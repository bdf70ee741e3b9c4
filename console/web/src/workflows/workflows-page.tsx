import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, call } from '../api';
import { usePeople } from '../people';
import { LoadProblem, Loading, ErrorNote } from '../problem';
import { Hidden, ProjectList, type Workflow } from '../schemas';
import { useSession } from '../session';
import { formatDateTime, formatUsd } from '../time';
import { useResource } from '../use-resource';
import { ACTIVE_REFETCH_MS, SENTINEL_MARGIN_PX } from './list-state';
import { countOf } from './plural';
import { RowActions } from './row-actions';
import { compactDateTime, creatorLabel, runDuration } from './run-facts';
import { StatusBadge } from './status-badge';
import { stateName } from '../status-names';
import { TitleDialog } from './title-editor';
import { useWorkflowList } from './use-workflow-list';
import { virtualRowStyle } from '../virtual-row';
import './workflows.css';

/** Rows are virtualised at a fixed height: a grid line on a wide screen, a card below NARROW (styles in workflows.css). */
const ROW_HEIGHT = 56;
const CARD_HEIGHT = 118;
const NARROW = '(max-width: 640px)';
/** The server's filter states, in the order a person scans them. */
const STATES = ['running', 'pending', 'queued', 'completed', 'failed', 'cancelled'] as const;
/** Typing settles this long before the list asks the server again. */
const SEARCH_SETTLE_MS = 300;

/** How often a running job's "so far" duration moves on. */
const NOW_EVERY_MS = 5_000;

/** The time, moved on every `everyMs`: render stays pure, and running durations still advance. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

function useNarrow(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const query = window.matchMedia(NARROW);
      query.addEventListener('change', notify);
      return () => query.removeEventListener('change', notify);
    },
    () => window.matchMedia(NARROW).matches,
  );
}

export function WorkflowsPage() {
  const [params, setParams] = useSearchParams();
  const project = params.get('project') ?? '';
  const includeHidden = params.get('hidden') === '1';
  const status = params.get('status') ?? '';
  const search = params.get('q') ?? '';
  const projects = useResource('/api/v1/projects', ProjectList);
  // The box's text and the search it was typed against: when the URL's search changes otherwise (back, forward),
  // the box shows the URL's.
  const [draft, setDraft] = useState({ text: search, base: search });
  const typed = draft.base === search ? draft.text : search;

  function setFilter(name: string, value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  }

  function searchNow(text: string) {
    setDraft({ text, base: text.trim() });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (text.trim()) next.set('q', text.trim());
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }

  // The search box updates the URL (and so the list) once typing settles.
  useEffect(() => {
    if (typed.trim() === search) return;
    const timer = setTimeout(() => searchNow(typed), SEARCH_SETTLE_MS);
    return () => clearTimeout(timer);
    // searchNow is rebuilt every render; what it reads is `typed` and the URL, both listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed, search]);

  return (
    <section className="runs">
      <div className="page-head">
        <h1>Workflows</h1>
        <Link className="button" to="/runs/new">
          New run
        </Link>
      </div>
      <form className="filters" role="search" aria-label="Workflows" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor="filter-search">Search</label>
        <input
          id="filter-search"
          type="search"
          placeholder="Title or prompt"
          maxLength={200}
          value={typed}
          onChange={(e) => setDraft({ text: e.target.value, base: search })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') searchNow(typed);
          }}
        />
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" value={status} onChange={(e) => setFilter('status', e.target.value)}>
          <option value="">All statuses</option>
          {STATES.map((state) => (
            <option key={state} value={state}>
              {stateName(state)}
            </option>
          ))}
        </select>
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
      </form>
      <WorkflowRows
        key={`${project}|${includeHidden}|${status}|${search}`}
        filter={{ project, includeHidden, status, search }}
      />
    </section>
  );
}

interface Filter {
  project: string;
  includeHidden: boolean;
  status: string;
  search: string;
}

function emptyMessage(filter: Filter): string {
  const what = [
    filter.status ? `${stateName(filter.status)} ` : '',
    'workflows',
    filter.search ? ` matching “${filter.search}”` : '',
    filter.project ? ' in this project' : '',
  ].join('');
  return filter.status || filter.search ? `No ${what}.` : `No ${what} yet.`;
}

function WorkflowRows({ filter }: { filter: Filter }) {
  const list = useWorkflowList(filter);
  const [actionError, setActionError] = useState<unknown>(null);
  const [renaming, setRenaming] = useState<Workflow | null>(null);
  const navigate = useNavigate();
  const { user } = useSession();

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

  const visible = filter.includeHidden ? list.rows : list.rows.filter((row) => !row.hidden);
  const filtered = Boolean(filter.status || filter.search || filter.project);

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
        <p className="empty" role="status">
          {emptyMessage(filter)} {filtered ? null : <Link to="/runs/new">Start a run</Link>}
        </p>
      ) : null}
      {visible.length > 0 ? (
        <Rows
          rows={visible}
          viewerId={user.id}
          actionsFor={(row) => [
            ...(row.latest_job_id
              ? [
                  {
                    label: 'Open latest job',
                    onSelect: () => void navigate(`/jobs/${encodeURIComponent(row.latest_job_id!)}`),
                  },
                ]
              : []),
            { label: 'Rename…', onSelect: () => setRenaming(row) },
            { label: row.hidden ? 'Unhide' : 'Hide', onSelect: () => void toggleHidden(row) },
          ]}
        />
      ) : null}
      {renaming ? (
        <TitleDialog
          workflow={renaming}
          onClose={() => setRenaming(null)}
          onSaved={(saved) => {
            list.patch(saved.workflow_id, {
              title: saved.title,
              title_set: saved.title_set,
              follow_up_policy: saved.follow_up_policy,
            });
            setRenaming(null);
          }}
        />
      ) : null}
      <Sentinel onNear={list.loadMore} active={list.nextCursor !== null} rowsLoaded={list.rows.length} />
      {list.loadingMore ? <Loading what="more workflows" /> : null}
      {list.loaded && list.nextCursor === null && visible.length > 0 ? (
        <p className="hint end-of-list">End of the list ({countOf(visible.length, 'workflow')}).</p>
      ) : null}
    </>
  );
}

const COLUMNS = ['Title', 'Status', 'Created by', 'Started', 'Duration', 'Cost'] as const;

function Rows({
  rows,
  viewerId,
  actionsFor,
}: {
  rows: Workflow[];
  viewerId: string;
  actionsFor: (row: Workflow) => { label: string; onSelect: () => void }[];
}) {
  const narrow = useNarrow();
  const height = narrow ? CARD_HEIGHT : ROW_HEIGHT;
  // Other people's runs (an admin's list) name their creator; the reader's own say "you".
  const creators = useMemo(
    () => [...new Set(rows.map((row) => row.created_by))].filter((id) => id !== viewerId),
    [rows, viewerId],
  );
  const people = usePeople(creators);
  // The list's distance from the top of the page, measured once it is in the document.
  const [scrollMargin, setScrollMargin] = useState(0);
  const container = useCallback((element: HTMLUListElement | null) => {
    if (element) setScrollMargin(element.offsetTop);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => height,
    overscan: 8,
    scrollMargin,
  });
  // A new row height (the window crossed NARROW) moves every row: measured again from the estimate.
  useEffect(() => virtualizer.measure(), [height, virtualizer]);
  const now = useNow(NOW_EVERY_MS);
  return (
    <>
      {/* The columns' names for the eye; each row also names its cells for a screen reader (a list, not a grid). */}
      <div className="runs-head" aria-hidden="true">
        {COLUMNS.map((name) => (
          <span key={name}>{name}</span>
        ))}
        <span />
      </div>
      <ul
        ref={container}
        className="wf-list runs-list"
        aria-label="Workflows"
        style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <li
              key={row.workflow_id}
              className="wf-row runs-row"
              aria-setsize={rows.length}
              aria-posinset={item.index + 1}
              data-workflow-id={row.workflow_id}
              style={virtualRowStyle(height, item.start - scrollMargin)}
            >
              <span className="runs-title">
                <Link to={`/workflows/${encodeURIComponent(row.workflow_id)}`} title={row.title}>
                  {row.title}
                </Link>
                <span className="runs-meta">
                  {row.workflow_id}
                  {row.project_slug ? ` · ${row.project_slug}` : ''}
                  {row.hidden ? ' · hidden' : ''}
                </span>
              </span>
              <span className="runs-status">
                <span className="visually-hidden">Status: </span>
                <StatusBadge status={row.status} />
              </span>
              <span className="runs-creator">
                <span className="visually-hidden">Created by </span>
                {creatorLabel(row.created_by, viewerId, people)}
              </span>
              <span className="runs-started">
                <span className="visually-hidden">Started </span>
                {row.created_at ? (
                  <time dateTime={row.created_at} title={formatDateTime(row.created_at)}>
                    {compactDateTime(row.created_at)}
                  </time>
                ) : (
                  '—'
                )}
              </span>
              <span className="runs-duration">
                <span className="visually-hidden">Duration </span>
                {runDuration(row, now)}
              </span>
              <span className="runs-cost">
                <span className="visually-hidden">Cost </span>
                {formatUsd(row.cost_usd)}
              </span>
              <span className="runs-actions">
                <RowActions label={`Actions for ${row.title}`} actions={actionsFor(row)} />
              </span>
            </li>
          );
        })}
      </ul>
    </>
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

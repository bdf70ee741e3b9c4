import { useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { RunGraphDrawing } from '../graph/run-graph-drawing';
import { useStreamingLevels, type LiveStore } from './live-store';
import { runGraphFromEvents, type RunEvent, type RunStep } from './run-graph-model';

/** `?step=<level_id>` on the page it is on, other search params kept but a timeline row's `event=` dropped. */
export function stepHref(pathname: string, search: URLSearchParams, step: Pick<RunStep, 'id'>): string {
  const next = new URLSearchParams(search);
  next.delete('event');
  next.set('step', step.id);
  return `${pathname}?${next.toString()}`;
}

/**
 * The job's run graph, live: rebuilt from the page's events each time a batch arrives, each step a link to its
 * `?step=` (the job page's step drawer opens from it). A running step whose model output streams now (`live`) is
 * marked streaming; the graph re-renders when that set changes, not with each delta.
 */
export function JobRunGraph({
  jobId,
  events,
  rowEnded,
  live,
}: {
  jobId: string;
  events: readonly RunEvent[];
  /** The job row's status once it is terminal, else null. */
  rowEnded: string | null;
  live?: LiveStore;
}) {
  const model = useMemo(() => runGraphFromEvents(events, rowEnded), [events, rowEnded]);
  const streaming = useStreamingLevels(live);
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  return (
    <section className="run-graph-panel" aria-labelledby="run-graph-title" data-live={!model.ended}>
      <h2 id="run-graph-title">Run graph</h2>
      {model.steps.length === 0 ? (
        <p className="empty">No step has started yet.</p>
      ) : (
        <RunGraphDrawing
          model={model}
          title={`What job ${jobId} ran${model.ended ? '' : ' so far'}`}
          current={search.get('step')}
          streaming={streaming}
          hrefOf={(step) => stepHref(pathname, search, step)}
        />
      )}
    </section>
  );
}

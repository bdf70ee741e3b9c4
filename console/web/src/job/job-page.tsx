import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../api';
import { LoadProblem, Loading } from '../problem';
import { Budget, Job } from '../schemas';
import { usePeople } from '../people';
import { useSession } from '../session';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { StatusBadge } from '../workflows/status-badge';
import { CancelJob } from './cancel-job';
import { deriveJob } from './derive';
import { FilesPanel } from './files-panel';
import { ForkFacts } from '../fork/fork-facts';
import { JobPrompt, JobTotals } from './job-header';
import { ReservationCalls, ReservationFacts, useJobReservations } from './job-spend';
import { cancellerIdOf, cancellerOf, endingFromRow, FallbackBanner, JobOutcome } from './job-outcome';
import { LevelTree } from './level-tree';
import { PeopleInTheLoop } from './open-items';
import { JobRunGraph } from './run-graph';
import { queueLine } from './queue-line';
import { useStatusReload } from './status-reload';
import { usePersonNames } from './person-names';
import { StepDrawer } from './step-drawer';
import { useJobStream } from './stream';
import { Timeline } from './timeline';
import { WebhookDeliveryLog } from '../webhooks/delivery-log';
import './job-page.css';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export function JobPage() {
  const { id = '' } = useParams();
  const { config, user } = useSession();
  const job = useResource(`/api/v1/jobs/${encodeURIComponent(id)}`, Job);
  const stream = useJobStream(id);
  const rowEnded = job.data && TERMINAL.has(job.data.status) ? job.data.status : null;
  const view = useMemo(() => deriveJob(stream.events, rowEnded), [stream.events, rowEnded]);
  const monthly = useResource('/api/me/budget', Budget);
  const reservations = useJobReservations(id, stream.events);
  // Someone else's cancel names them (hooks run before the early returns below, so the id may not be known yet).
  const cancellerId = job.data ? cancellerIdOf(job.data) : null;
  const cancellers = usePeople(cancellerId && cancellerId !== user.id ? [cancellerId] : []);
  // People the events hold by user id (a human task's assignee), named in the timeline and the step drawer.
  const nameOf = usePersonNames(stream.events);
  const [cancelledHere, setCancelledHere] = useState(false);

  const reloadJob = job.reload;
  // The badge shows the API's status; the row changes when the job starts, waits for a person (a question, an
  // approval, a human task), goes on and ends, each of which the stream shows first.
  useStatusReload(stream.events, job.data?.status, reloadJob);
  const reloadMonth = monthly.reload;
  useEffect(() => {
    if (stream.finished) {
      reloadJob();
      // The month beside the job's cost includes what the job just spent.
      reloadMonth();
    }
  }, [stream.finished, reloadJob, reloadMonth]);

  const refused = job.error ?? stream.error;
  if (refused instanceof ApiError && [401, 403, 404].includes(refused.status)) return <LoadProblem error={refused} />;
  if (job.error && !job.data) return <LoadProblem error={job.error} />;
  if (!job.data) return <Loading what="the job" />;

  const data = job.data;
  const finished = TERMINAL.has(data.status) || stream.finished;
  // Until the reloaded job row says so, the stream's terminal event tells how the job ended.
  const endedAs = view.final ? 'completed' : view.failure?.payload.code === 'cancelled' ? 'cancelled' : 'failed';
  const status = stream.finished && !TERMINAL.has(data.status) ? endedAs : data.status;
  // Read with the job's row, which is read again on the job's next event (its first level once granted a slot).
  const queued = queueLine(data.queue);

  const temporal = config.temporalUiUrl
    ? `${config.temporalUiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(config.temporalNamespace ?? 'default')}/workflows/${encodeURIComponent(id)}`
    : null;

  return (
    <section className="job">
      <div className="page-head">
        <h1>
          Job <code>{id}</code>
        </h1>
        {view.ending?.kind === 'completed_with_warnings' && status === 'completed' ? (
          <span className="badge status-completed_with_warnings">completed with warnings</span>
        ) : (
          <StatusBadge status={status} />
        )}
      </div>
      {queued && !finished ? (
        <p className="hint" data-testid="job-queue" aria-live="polite">
          {queued}
        </p>
      ) : null}
      <JobPrompt workflowId={data.workflow_id} promptId={data.prompt_id} />
      <dl className="facts">
        <dt>Workflow</dt>
        <dd>
          <Link to={`/workflows/${encodeURIComponent(data.workflow_id)}`}>{data.workflow_id}</Link>
        </dd>
        <dt>Budget</dt>
        <dd data-testid="model-tier">{data.model_tier ?? 'cheap'}</dd>
        <dt>Project</dt>
        <dd>{data.project_slug ?? '—'}</dd>
        <dt>Started</dt>
        <dd>
          <Time iso={data.created_at} />
        </dd>
        <ForkFacts jobId={id} from={data.forked_from} forks={data.forks} />
        <JobTotals view={view} budget={monthly.data} />
        <ReservationFacts reservations={reservations} />
        <dt>Stream</dt>
        <dd aria-live="polite">
          {finished
            ? 'finished'
            : stream.connected
              ? 'live'
              : stream.events.length === 0 && stream.reconnects === 0
                ? 'connecting…'
                : 'reconnecting…'}
          {stream.reconnects > 0 ? ` (reconnected ${stream.reconnects}×)` : ''}
        </dd>
      </dl>
      <div className="actions">
        <CancelJob
          jobId={id}
          disabled={finished || status === 'cancelled'}
          onCancelled={() => {
            setCancelledHere(true);
            reloadJob();
          }}
        />
        {temporal ? (
          <a href={temporal} target="_blank" rel="noreferrer">
            Open in the Temporal UI
          </a>
        ) : null}
      </div>
      <FallbackBanner fallbacks={view.fallbacks} />

      <PeopleInTheLoop jobId={id} events={stream.events} finished={finished} />

      <JobOutcome
        ending={view.ending ?? endingFromRow(data)}
        canceller={cancellerOf(data, user, cancelledHere, cancellers)}
      />

      <div className="job-grid">
        <section aria-labelledby="levels-title">
          <h2 id="levels-title" tabIndex={-1}>
            Levels
          </h2>
          <LevelTree view={view} live={stream.live} />
        </section>
        <FilesPanel jobId={id} paths={view.files} />
      </div>
      <ReservationCalls reservations={reservations} />
      <JobRunGraph jobId={id} events={stream.events} rowEnded={rowEnded} live={stream.live} />
      <Timeline events={stream.events} nameOf={nameOf} />
      <WebhookDeliveryLog jobId={id} finished={finished} />
      <StepDrawer
        nameOf={nameOf}
        jobId={id}
        events={stream.events}
        view={view}
        live={stream.live}
        loaded={finished || (stream.connected && stream.events.length > 0)}
      />
    </section>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, call } from '../api';
import { ErrorNote, LoadProblem, Loading } from '../problem';
import { ApprovalList, Budget, Cancelled, Job } from '../schemas';
import { useSession } from '../session';
import { formatCents, formatUsd } from '../time';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { StatusBadge } from '../workflows/status-badge';
import { deriveJob } from './derive';
import { FilesPanel } from './files-panel';
import { ApprovalCard, QuestionCard } from './human-input';
import { LevelTree } from './level-tree';
import { reloadsJobRow } from './status-reload';
import { useJobStream } from './stream';
import { Timeline } from './timeline';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function JobPage() {
  const { id = '' } = useParams();
  const { config } = useSession();
  const job = useResource(`/api/v1/jobs/${encodeURIComponent(id)}`, Job);
  const stream = useJobStream(id);
  const view = useMemo(() => deriveJob(stream.events), [stream.events]);
  const monthly = useResource('/api/me/budget', Budget);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const [cancelling, setCancelling] = useState(false);
  const [decisions, setDecisions] = useState<{ id: string; status: string }[]>([]);
  const [answered, setAnswered] = useState<string[]>([]);
  const hasApprovals = view.approvals.length > 0;
  const approvals = useResource(
    hasApprovals ? `/api/v1/approvals?job_id=${encodeURIComponent(id)}&limit=100` : null,
    ApprovalList,
  );

  const reloadJob = job.reload;
  // The badge shows the API's status; the row changes when the job starts, waits for a person (a question, an
  // approval, a human task), goes on and ends, each of which the stream shows first.
  const lastEvent = stream.events[stream.events.length - 1];
  const lastKind = lastEvent?.kind;
  const lastSequence = lastEvent?.sequence;
  const shownStatus = job.data?.status;
  useEffect(() => {
    if (reloadsJobRow(lastKind, shownStatus)) reloadJob();
  }, [lastSequence, lastKind, shownStatus, reloadJob]);
  useEffect(() => {
    if (stream.finished) reloadJob();
  }, [stream.finished, reloadJob]);

  const refused = job.error ?? stream.error;
  if (refused instanceof ApiError && [401, 403, 404].includes(refused.status)) return <LoadProblem error={refused} />;
  if (job.error && !job.data) return <LoadProblem error={job.error} />;
  if (!job.data) return <Loading what="the job" />;

  const data = job.data;
  const finished = TERMINAL.has(data.status) || stream.finished;
  // Until the reloaded job row says so, the stream's terminal event tells how the job ended.
  const endedAs = view.final ? 'completed' : view.failure?.payload.code === 'cancelled' ? 'cancelled' : 'failed';
  const status = stream.finished && !TERMINAL.has(data.status) ? endedAs : data.status;

  async function cancel() {
    setCancelling(true);
    setCancelError(null);
    try {
      await call(`/api/v1/jobs/${encodeURIComponent(id)}/cancel`, Cancelled, { method: 'POST', body: {} });
      reloadJob();
    } catch (err) {
      setCancelError(err);
    } finally {
      setCancelling(false);
    }
  }

  const temporal = config.temporalUiUrl
    ? `${config.temporalUiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(config.temporalNamespace ?? 'default')}/workflows/${encodeURIComponent(id)}`
    : null;
  const approvalStatus = new Map((approvals.data?.approvals ?? []).map((a) => [a.approval_id, a.status]));
  const openQuestions = view.questions.filter((q) => !q.answered && !answered.includes(q.callId));
  const openApprovals = view.approvals.filter(
    (a) =>
      !a.settled &&
      !decisions.some((d) => d.id === a.approvalId) &&
      (approvalStatus.get(a.approvalId) ?? 'pending') === 'pending',
  );

  return (
    <section className="job">
      <div className="page-head">
        <h1>
          Job <code>{id}</code>
        </h1>
        <StatusBadge status={status} />
      </div>
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
        <dt>Cost so far</dt>
        <dd data-testid="job-cost">
          {formatUsd(view.costUsd ?? 0)}
          {view.limitUsd !== null ? ` of ${formatUsd(view.limitUsd)} job budget` : ''}
          {view.budgetExceeded ? ' — job budget exceeded' : ''} · <MonthLine budget={monthly.data} />
        </dd>
        <dt>Stream</dt>
        <dd aria-live="polite">
          {finished ? 'finished' : stream.connected ? 'live' : 'reconnecting…'}
          {stream.reconnects > 0 ? ` (reconnected ${stream.reconnects}×)` : ''}
        </dd>
      </dl>
      <div className="actions">
        <button type="button" onClick={() => void cancel()} disabled={finished || cancelling || status === 'cancelled'}>
          {cancelling ? 'Cancelling…' : 'Cancel job'}
        </button>
        {temporal ? (
          <a href={temporal} target="_blank" rel="noreferrer">
            Open in the Temporal UI
          </a>
        ) : null}
      </div>
      <ErrorNote error={cancelError} />

      {openQuestions.length > 0 || openApprovals.length > 0 ? (
        <section className="needs-you" aria-labelledby="needs-you-title">
          <h2 id="needs-you-title">Waiting for you</h2>
          {openQuestions.map((q) => (
            <QuestionCard
              key={q.callId}
              jobId={id}
              question={q}
              onAnswered={() => setAnswered((done) => [...done, q.callId])}
            />
          ))}
          {openApprovals.map((a) => (
            <ApprovalCard
              key={a.approvalId}
              approval={a}
              onDecided={(status) => {
                setDecisions((done) => [...done, { id: a.approvalId, status }]);
                approvals.reload();
              }}
            />
          ))}
        </section>
      ) : null}
      {/* Kept outside the cards: a card leaves as soon as the stream or the approvals list shows the answer or the
          decision, which under load can be before the answer's own response arrives. */}
      {answered.map((callId) => (
        <p key={callId} role="status">
          Answer sent; the job continues.
        </p>
      ))}
      {decisions.map((d) => (
        <p key={d.id} role="status">
          Approval {d.status}; the job continues.
        </p>
      ))}

      {view.final ? (
        <section className="outcome" aria-labelledby="outcome-title">
          <h2 id="outcome-title">Result</h2>
          <p>{text(view.final.payload.summary) || text(view.final.payload.agent_message)}</p>
        </section>
      ) : null}
      {view.failure ? (
        <section className="outcome failed" aria-labelledby="outcome-title">
          <h2 id="outcome-title">Ended with an error</h2>
          <p>
            {text(view.failure.payload.code) || 'error'}: {text(view.failure.payload.message)}
          </p>
        </section>
      ) : null}

      <div className="job-grid">
        <section aria-labelledby="levels-title">
          <h2 id="levels-title">Levels</h2>
          <LevelTree view={view} />
        </section>
        <FilesPanel jobId={id} paths={view.files} />
      </div>
      <Timeline events={stream.events} />
    </section>
  );
}

/** The person's month beside the job's own cost: what the next submission will be checked against. */
function MonthLine({ budget }: { budget: Budget | undefined }) {
  if (!budget) return <Link to="/budget">my monthly budget</Link>;
  return (
    <Link to="/budget">
      {budget.exempt
        ? `this month ${formatCents(budget.spentCents)}, no monthly cap`
        : `this month ${formatCents(budget.spentCents)} of ${formatCents(budget.budgetCents)}`}
    </Link>
  );
}

import { Link } from 'react-router';
import { DecideButtons } from '../job/human-input';
import { LoadProblem, Loading } from '../problem';
import { ApprovalList, type Approval } from '../schemas';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';

export function ApprovalsPage() {
  const pending = useResource('/api/v1/approvals?status=pending&limit=100', ApprovalList);
  const approved = useResource('/api/v1/approvals?status=approved&limit=50', ApprovalList);
  const rejected = useResource('/api/v1/approvals?status=rejected&limit=50', ApprovalList);
  const error = pending.error ?? approved.error ?? rejected.error;
  if (error) return <LoadProblem error={error} />;
  const decided = [...(approved.data?.approvals ?? []), ...(rejected.data?.approvals ?? [])].sort((a, b) =>
    (b.decided_at ?? '').localeCompare(a.decided_at ?? ''),
  );
  const reload = () => {
    pending.reload();
    approved.reload();
    rejected.reload();
  };
  return (
    <section>
      <h1>Approvals</h1>
      <h2>Pending</h2>
      {pending.loading && !pending.data ? <Loading what="pending approvals" /> : null}
      {pending.data?.approvals.length === 0 ? <p className="empty">Nothing is waiting for a decision.</p> : null}
      <ul className="cards">
        {(pending.data?.approvals ?? []).map((a) => (
          <li key={a.approval_id} className="card">
            <ApprovalHead approval={a} />
            <DecideButtons approvalId={a.approval_id} label={a.action} onDecided={reload} />
          </li>
        ))}
      </ul>
      <h2>Decided</h2>
      {approved.loading && !approved.data ? <Loading what="decided approvals" /> : null}
      {approved.data && rejected.data && decided.length === 0 ? <p className="empty">No decisions yet.</p> : null}
      <ul className="cards">
        {decided.map((a) => (
          <li key={a.approval_id} className="card">
            <ApprovalHead approval={a} />
            <p>
              <span className={`badge status-${a.status}`}>{a.status}</span> by {a.decided_by ?? '?'}{' '}
              <Time iso={a.decided_at} />
              {a.comment ? ` — “${a.comment}”` : ''}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ApprovalHead({ approval }: { approval: Approval }) {
  return (
    <p>
      <strong>{approval.role}</strong> asks to <strong>{approval.action}</strong>: {approval.reason}
      <br />
      <span className="hint">
        Job <Link to={`/jobs/${encodeURIComponent(approval.job_id)}`}>{approval.job_id}</Link> · requested{' '}
        <Time iso={approval.created_at} />
      </span>
    </p>
  );
}

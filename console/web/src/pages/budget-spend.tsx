import { Link } from 'react-router';
import { LoadProblem, Loading } from '../problem';
import { ScrollTable } from '../scroll-table';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { StatusBadge } from '../workflows/status-badge';
import { MySpend } from './spend-schema';
import './budget.css';

function usd(value: number): string {
  // Demo and free runs cost fractions of a cent: four places keep them visible.
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 4 : 2)}`;
}

/** The month's spend by day (a bar per day with its amount in text) and by job, from GET /api/v1/me/spend. */
export function SpendBreakdown({ since }: { since: string }) {
  const spend = useResource(`/api/v1/me/spend?since=${encodeURIComponent(since)}`, MySpend);
  if (spend.error) return <LoadProblem error={spend.error} />;
  if (!spend.data) return <Loading what="your spend" />;
  const { by_day: days, by_job: jobs } = spend.data;
  const highest = Math.max(...days.map((d) => d.cost_usd), 0);
  return (
    <>
      <section aria-labelledby="by-day-title">
        <h2 id="by-day-title">By day</h2>
        {days.length === 0 ? <p className="empty">No runs this month yet.</p> : null}
        <ol className="spend-days">
          {days.map((d) => (
            <li key={d.day} data-day={d.day}>
              <span className="spend-day">{d.day}</span>
              <span className="spend-bar" aria-hidden="true">
                <span style={{ width: `${highest > 0 ? Math.max(2, (d.cost_usd / highest) * 100) : 2}%` }} />
              </span>
              <span className="spend-amount">
                {usd(d.cost_usd)} · {d.jobs} run{d.jobs === 1 ? '' : 's'}
              </span>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="by-job-title">
        <h2 id="by-job-title">By job</h2>
        {jobs.length === 0 ? <p className="empty">No jobs this month yet.</p> : null}
        {jobs.length > 0 ? (
          <ScrollTable columns={['Job', 'Status', 'Started', 'Cost']}>
            {jobs.map((j) => (
              <tr key={j.job_id} data-job={j.job_id}>
                <th scope="row">
                  <Link to={`/jobs/${encodeURIComponent(j.job_id)}`}>{j.title || j.job_id}</Link>
                </th>
                <td>
                  <StatusBadge status={j.status} />
                </td>
                <td>
                  <Time iso={j.created_at} />
                </td>
                <td>{usd(j.cost_usd)}</td>
              </tr>
            ))}
          </ScrollTable>
        ) : null}
        {spend.data.jobs > jobs.length ? (
          <p className="hint">
            The {jobs.length} most expensive of {spend.data.jobs} jobs.
          </p>
        ) : null}
      </section>
    </>
  );
}

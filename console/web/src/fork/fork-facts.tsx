import { Link } from 'react-router';
import { Time } from '../time-tag';
import type { ForkedFrom, ForkOf } from './fork-schemas';

const jobLink = (id: string) => `/jobs/${encodeURIComponent(id)}`;
const compareLink = (a: string, b: string) => `/jobs/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`;

/** Where a fork came from and the forks of this job, as facts of the job page, each with its compare view. */
export function ForkFacts({
  jobId,
  from,
  forks = [],
}: {
  jobId: string;
  from: ForkedFrom | null | undefined;
  forks: ForkOf[] | undefined;
}) {
  if (!from && forks.length === 0) return null;
  return (
    <>
      {from ? (
        <>
          <dt>Forked from</dt>
          <dd data-testid="forked-from">
            <Link to={jobLink(from.job_id)}>{from.job_id}</Link>
            {from.from_level_run_id ? (
              <>
                {' '}
                after <code>{from.from_level_run_id.split('/').slice(1).join('/')}</code>
              </>
            ) : (
              ' from the start'
            )}
            {` · ${from.carried_level_ids.length} run${from.carried_level_ids.length === 1 ? '' : 's'} carried over`}
            {from.prompt_patched ? ' · prompt edited' : ''}
            {from.model_tier ? ` · tier ${from.model_tier}` : ''} ·{' '}
            <Link to={compareLink(from.job_id, jobId)}>compare</Link>
          </dd>
        </>
      ) : null}
      {forks.length > 0 ? (
        <>
          <dt>Forks</dt>
          <dd>
            <ul className="forks" data-testid="forks">
              {forks.map((fork) => (
                <li key={fork.job_id}>
                  <Link to={jobLink(fork.job_id)}>{fork.job_id}</Link>
                  {fork.from_level_run_id ? (
                    <>
                      {' '}
                      after <code>{fork.from_level_run_id.split('/').slice(1).join('/')}</code>
                    </>
                  ) : null}{' '}
                  · <Time iso={fork.created_at} short /> · <Link to={compareLink(jobId, fork.job_id)}>compare</Link>
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
    </>
  );
}

import { personLabel } from '../people';
import type { Person } from '../people-schemas';
import type { Job, SessionUser } from '../schemas';
import type { Ending, Fallback } from './derive';

/** Who cancelled the job, as its row records it (`error.cancelled_by`), or null when the row does not say. */
export function cancellerIdOf(job: Job): string | null {
  const error = job.error as { cancelled_by?: unknown } | null;
  return typeof error?.cancelled_by === 'string' ? error.cancelled_by : null;
}

/** Who cancelled, by name or email: the row's `cancelled_by` (the API records it), else this tab's own cancel. */
export function cancellerOf(
  job: Job,
  me: SessionUser,
  cancelledHere: boolean,
  people: ReadonlyMap<string, Person> | undefined,
): string | null {
  const by = cancellerIdOf(job);
  if (by === me.id || (!by && cancelledHere)) return `you (${me.email})`;
  return by ? personLabel(by, people) : null;
}

/** A job that ended without a terminal event (cancelled before a worker took it): how its row says it ended. */
export function endingFromRow(job: Job): Ending | null {
  const error = job.error as { code?: unknown; message?: unknown } | null;
  const message = typeof error?.message === 'string' ? error.message : '';
  if (job.status === 'cancelled') return { kind: 'cancelled', message };
  if (job.status === 'failed')
    return { kind: 'failed', code: typeof error?.code === 'string' ? error.code : 'error', message };
  return null;
}

/**
 * How the job ended: a result, a result with warnings (a failed deploy, a level the job survived), a neutral cancel
 * naming who, or a failure. Red is kept for the last.
 */
export function JobOutcome({ ending, canceller }: { ending: Ending | null; canceller: string | null }) {
  if (!ending) return null;
  switch (ending.kind) {
    case 'completed':
      return (
        <section className="outcome" aria-labelledby="outcome-title">
          <h2 id="outcome-title">Result</h2>
          <p>{ending.summary}</p>
        </section>
      );
    case 'completed_with_warnings':
      return (
        <section className="outcome outcome-warn" aria-labelledby="outcome-title">
          <h2 id="outcome-title">Completed with warnings</h2>
          <ul>
            {ending.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
          <p>{ending.summary}</p>
        </section>
      );
    case 'cancelled':
      return (
        <section className="outcome outcome-neutral" aria-labelledby="outcome-title">
          <h2 id="outcome-title">Cancelled{canceller ? ` by ${canceller}` : ''}</h2>
          <p>The job stopped; levels that were still open are marked cancelled.</p>
        </section>
      );
    case 'failed':
      return (
        <section className="outcome failed" aria-labelledby="outcome-title">
          <h2 id="outcome-title">Failed: {ending.code}</h2>
          <p>{ending.message}</p>
        </section>
      );
  }
}

/** Every model or provider the job did not get as asked, above the fold: a tier that fell back to the demo model. */
export function FallbackBanner({ fallbacks }: { fallbacks: Fallback[] }) {
  if (fallbacks.length === 0) return null;
  const demo = fallbacks.some((f) => f.demo);
  return (
    <section className="banner banner-warn" aria-labelledby="fallback-title">
      <h2 id="fallback-title">
        {demo ? 'Answered by the offline demo model, not the tier asked for' : 'Some levels fell back to another model'}
      </h2>
      <ul>
        {fallbacks.map((f) => (
          <li key={f.sequence}>
            <strong>{f.roles.join(', ')}</strong>: {f.text}
          </li>
        ))}
      </ul>
    </section>
  );
}

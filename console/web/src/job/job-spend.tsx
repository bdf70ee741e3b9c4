import { useEffect } from 'react';
import { JobReservations } from '../admin/tenant-budget-schemas';
import type { AgentEvent } from '../schemas';
import { ScrollTable } from '../scroll-table';
import { Time } from '../time-tag';
import { useResource, type Resource } from '../use-resource';

/** The events after which a call has been reserved, settled or released: the reservations are read again. */
const MOVES = new Set(['prompt_sent', 'level_finished', 'budget_consumed', 'budget_exceeded', 'final', 'error']);

function usd(value: number): string {
  // A demo call costs fractions of a cent: four places keep it visible.
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 4 : 2)}`;
}

/** The job's reservations (docs/budgets.md, "Reservation and settlement"), read again as its calls are made. */
export function useJobReservations(jobId: string, events: readonly AgentEvent[]): Resource<JobReservations> {
  const resource = useResource(`/api/v1/jobs/${encodeURIComponent(jobId)}/reservations`, JobReservations);
  const moves = events.filter((e) => MOVES.has(e.kind)).length;
  const { reload } = resource;
  useEffect(() => {
    if (moves > 0) reload();
  }, [moves, reload]);
  return resource;
}

/** One line among the job's facts: what its calls settled at against what they reserved. */
export function ReservationFacts({ reservations }: { reservations: Resource<JobReservations> }) {
  const t = reservations.data?.totals;
  return (
    <>
      <dt>Reserved / settled</dt>
      <dd data-testid="job-reservations">
        {!t
          ? reservations.error
            ? 'unavailable'
            : 'loading…'
          : t.calls === 0
            ? 'no model call yet'
            : `settled ${usd(t.settled_usd)} of ${usd(t.reserved_usd)} reserved over ${t.calls} model call${t.calls === 1 ? '' : 's'}` +
              (t.open_usd > 0 ? ` · ${usd(t.open_usd)} reserved for calls under way` : '') +
              (t.released_usd > 0 ? ` · ${usd(t.released_usd)} released (calls not charged)` : '')}
      </dd>
    </>
  );
}

/** Each model call: its level, model, the estimate reserved before it and the cost it settled at. */
export function ReservationCalls({ reservations }: { reservations: Resource<JobReservations> }) {
  const calls = reservations.data?.calls ?? [];
  if (calls.length === 0) return null;
  return (
    <section aria-labelledby="calls-title" className="job-calls">
      <details>
        <summary>
          <h2 id="calls-title">Model calls: reserved and settled ({calls.length})</h2>
        </summary>
        <p className="hint">
          Each call reserves its estimated cost against the job&apos;s budget and its org&apos;s and project&apos;s
          monthly budgets before it is made, and settles at what it cost.
        </p>
        <ScrollTable columns={['Level', 'Model', 'State', 'Reserved', 'Settled', 'At']}>
          {calls.map((c) => (
            <tr key={c.reservation_id} data-reservation={c.reservation_id}>
              <th scope="row">{c.level_id.split('/').slice(1).join('/') || c.level_id}</th>
              <td>
                {c.provider}/{c.model}
              </td>
              <td>{c.state}</td>
              <td>{usd(c.reserved_usd)}</td>
              <td>{c.settled_usd === null ? '—' : usd(c.settled_usd)}</td>
              <td>
                <Time iso={c.settled_at ?? c.created_at} />
              </td>
            </tr>
          ))}
        </ScrollTable>
      </details>
    </section>
  );
}

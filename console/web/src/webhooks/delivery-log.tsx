import { useEffect, useState } from 'react';
import { call, seg } from '../api';
import { ErrorNote, LoadProblem } from '../problem';
import { ScrollTable } from '../scroll-table';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { Redelivered, WebhookDeliveries, type WebhookDelivery } from './schemas';

/** While a delivery is pending (its retries run for hours at most), the log is read again this often. */
const PENDING_RELOAD_MS = 3_000;

/**
 * The job's webhook delivery log (docs/webhooks.md): one row per delivery with its status, attempts and the last
 * attempt's latency and answer, and a Redeliver button that sends the same event again as a new delivery. Shown only
 * when the job has deliveries (its own webhook or its project's subscriptions); read again when the job ends and while
 * a delivery is pending.
 */
export function WebhookDeliveryLog({ jobId, finished }: { jobId: string; finished: boolean }) {
  const log = useResource(`/api/v1/jobs/${seg(jobId)}/webhook-deliveries`, WebhookDeliveries);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const reload = log.reload;
  const pending = log.data?.deliveries.some((d) => d.status === 'pending') ?? false;

  useEffect(() => {
    if (finished) reload();
  }, [finished, reload]);
  useEffect(() => {
    if (!pending && finished) return;
    const timer = setInterval(reload, PENDING_RELOAD_MS);
    return () => clearInterval(timer);
  }, [pending, finished, reload]);

  async function redeliver(delivery: WebhookDelivery) {
    setError(null);
    setNotice(null);
    try {
      const answer = await call(
        `/api/v1/jobs/${seg(jobId)}/webhook-deliveries/${seg(delivery.delivery_id)}/redeliver`,
        Redelivered,
        { method: 'POST', body: {} },
      );
      setNotice(`Redelivering ${delivery.event_kind} as ${answer.delivery_id}.`);
    } catch (err) {
      setError(err);
    }
    reload();
  }

  if (log.error && !log.data) return <LoadProblem error={log.error} />;
  if (!log.data || log.data.deliveries.length === 0) return null;
  return (
    <section aria-labelledby="webhook-deliveries-title" className="webhook-deliveries">
      <h2 id="webhook-deliveries-title">Webhook deliveries</h2>
      <div aria-live="polite">
        <ErrorNote error={error} />
        {notice ? <p role="status">{notice}</p> : null}
      </div>
      <ScrollTable columns={['Event', 'Endpoint', 'Status', 'Attempts', 'Last answer', 'Latency', 'Actions']}>
        {log.data.deliveries.map((d) => {
          const last = d.attempts.at(-1);
          return (
            <tr key={d.delivery_id} data-delivery={d.delivery_id}>
              <th scope="row">
                {d.event_kind} <span className="hint">#{d.sequence}</span>
              </th>
              <td>
                <code>{d.url}</code>
                {d.subscription_id ? <div className="hint">project subscription {d.subscription_id}</div> : null}
              </td>
              <td>
                <span className={`badge status-${d.status === 'delivered' ? 'completed' : d.status}`}>{d.status}</span>
                {d.finished_at ? (
                  <div className="hint">
                    <Time iso={d.finished_at} short />
                  </div>
                ) : null}
              </td>
              <td data-testid="attempts">{d.attempts.length}</td>
              <td>{last ? (last.status_code ?? last.error ?? 'no answer') : '—'}</td>
              <td>{last ? `${last.latency_ms} ms` : '—'}</td>
              <td>
                <button type="button" className="small secondary" onClick={() => void redeliver(d)}>
                  Redeliver<span className="visually-hidden"> {d.delivery_id}</span>
                </button>
              </td>
            </tr>
          );
        })}
      </ScrollTable>
    </section>
  );
}

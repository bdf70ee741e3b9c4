// `keel webhooks`: a job's webhook delivery log and redelivery (docs/webhooks.md, "The delivery log").
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { dataOf } from '../clients/client';
import { UsageError, type ApiTarget } from './api';
import { reach } from './api-request';
import { table } from './table';

const Delivery = z.looseObject({
  delivery_id: z.string(),
  sequence: z.number(),
  event_kind: z.string(),
  url: z.string(),
  status: z.string(),
  created_at: z.string(),
  attempts: z.array(
    z.looseObject({
      attempt: z.number(),
      status_code: z.number().nullable(),
      latency_ms: z.number(),
      ok: z.boolean(),
      error: z.string().nullable(),
    }),
  ),
});
export const Deliveries = z.looseObject({ deliveries: z.array(Delivery) });
export type Deliveries = z.infer<typeof Deliveries>;

export const WEBHOOKS_USAGE = `  keel webhooks <job> [--json]
      The job's webhook deliveries: event, endpoint, status, attempts and the last answer.
  keel webhooks <job> --redeliver <delivery-id>
      Deliver that event again to its endpoint, as a new delivery (prints its id).`;

export async function runWebhooks(target: ApiTarget, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { redeliver: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [jobId, ...extra] = positionals;
  if (!jobId || extra.length > 0) throw new UsageError('keel webhooks needs one job id');
  if (values.redeliver !== undefined) {
    const deliveryId = values.redeliver;
    const made = await reach(target, async (client) =>
      dataOf(
        await client.POST('/v1/jobs/{id}/webhook-deliveries/{delivery_id}/redeliver', {
          params: { path: { id: jobId, delivery_id: deliveryId } },
        }),
      ),
    );
    console.log(made.delivery_id);
    return 0;
  }
  const log = await reach(target, async (client) =>
    Deliveries.parse(dataOf(await client.GET('/v1/jobs/{id}/webhook-deliveries', { params: { path: { id: jobId } } }))),
  );
  console.log(values.json ? JSON.stringify(log, null, 2) : renderDeliveries(log));
  return 0;
}

/** One row a delivery, oldest first; the last attempt's answer (code, or the error) and latency. */
export function renderDeliveries(log: Deliveries): string {
  if (log.deliveries.length === 0)
    return 'No webhook deliveries for this job (it has no webhook and no project subscription).';
  const cells = log.deliveries.map((d) => {
    const last = d.attempts[d.attempts.length - 1];
    const answer = !last ? '-' : last.status_code !== null ? String(last.status_code) : (last.error ?? 'no answer');
    return [
      d.delivery_id,
      `${d.event_kind} #${d.sequence}`,
      d.url,
      d.status,
      String(d.attempts.length),
      last ? `${answer} in ${last.latency_ms} ms` : '-',
    ];
  });
  return table(['DELIVERY', 'EVENT', 'ENDPOINT', 'STATUS', 'ATTEMPTS', 'LAST ANSWER'], cells);
}

import type { Pool, PoolClient } from 'pg';

type Queryable = Pool | PoolClient;

/** A job's webhook as stored: the secret signs every delivery (docs/webhooks.md). */
export interface WebhookSubscription {
  url: string;
  /** Subscribed event kinds (webhooks/subscription.ts names the ones allowed). */
  events: string[];
  secret: string;
}

/** Stores a submission's webhook beside its job row (called inside the submission's transaction). */
export async function insertJobWebhook(db: Queryable, jobId: string, sub: WebhookSubscription): Promise<void> {
  await db.query('INSERT INTO job_webhooks (job_id, url, events, secret) VALUES ($1, $2, $3, $4)', [
    jobId,
    sub.url,
    sub.events,
    sub.secret,
  ]);
}

/** The job's webhook, secret included: for the worker that signs deliveries only, never for an answer. */
export async function getJobWebhook(db: Queryable, jobId: string): Promise<WebhookSubscription | undefined> {
  const { rows } = await db.query<WebhookSubscription>(
    'SELECT url, events, secret FROM job_webhooks WHERE job_id = $1',
    [jobId],
  );
  return rows[0];
}

/** Records a delivery once: a second call for the same id (a retried append) changes nothing. */
export async function insertDelivery(
  db: Queryable,
  row: {
    deliveryId: string;
    jobId: string;
    sequence: number;
    eventKind: string;
    url: string;
    /** The project subscription delivered to; absent or null: the job's own webhook. */
    subscriptionId?: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO webhook_deliveries (delivery_id, job_id, sequence, event_kind, url, subscription_id)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (delivery_id) DO NOTHING`,
    [row.deliveryId, row.jobId, row.sequence, row.eventKind, row.url, row.subscriptionId ?? null],
  );
}

/**
 * Where a delivery goes: `{ subscriptionId: null }` for the job's own webhook, or the project subscription's id;
 * undefined when no such delivery is recorded.
 */
export async function deliveryTarget(
  db: Queryable,
  deliveryId: string,
): Promise<{ subscriptionId: string | null } | undefined> {
  const { rows } = await db.query<{ subscription_id: string | null }>(
    'SELECT subscription_id FROM webhook_deliveries WHERE delivery_id = $1',
    [deliveryId],
  );
  return rows[0] ? { subscriptionId: rows[0].subscription_id } : undefined;
}

export interface DeliveryAttempt {
  attempt: number;
  statusCode: number | null;
  latencyMs: number;
  ok: boolean;
  error: string | null;
}

/** Logs one attempt; an attempt already logged (an activity retried after it logged) keeps its first record. */
export async function insertDeliveryAttempt(db: Queryable, deliveryId: string, a: DeliveryAttempt): Promise<void> {
  await db.query(
    `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, status_code, latency_ms, ok, error)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (delivery_id, attempt) DO NOTHING`,
    [deliveryId, a.attempt, a.statusCode, a.latencyMs, a.ok, a.error],
  );
}

/** Ends a delivery: `delivered` once an attempt got a 2xx, `failed` when its retries ran out. */
export async function finishDelivery(db: Queryable, deliveryId: string, status: 'delivered' | 'failed'): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = $2, finished_at = now() WHERE delivery_id = $1 AND status = 'pending'`,
    [deliveryId, status],
  );
}

export interface DeliveryRow {
  delivery_id: string;
  sequence: number;
  event_kind: string;
  url: string;
  /** null: the job's own webhook. */
  subscription_id: string | null;
  status: 'pending' | 'delivered' | 'failed';
  created_at: Date;
  finished_at: Date | null;
  attempts: {
    attempt: number;
    attempted_at: string;
    status_code: number | null;
    latency_ms: number;
    ok: boolean;
    error: string | null;
  }[];
}

/** A job's deliveries in event order, each with its attempts in order. */
export async function listDeliveries(db: Queryable, jobId: string): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT d.delivery_id, d.sequence, d.event_kind, d.url, d.subscription_id, d.status, d.created_at, d.finished_at,
            COALESCE(
              (SELECT json_agg(json_build_object(
                        'attempt', a.attempt, 'attempted_at', a.attempted_at, 'status_code', a.status_code,
                        'latency_ms', a.latency_ms, 'ok', a.ok, 'error', a.error) ORDER BY a.attempt)
                 FROM webhook_delivery_attempts a WHERE a.delivery_id = d.delivery_id),
              '[]'::json) AS attempts
       FROM webhook_deliveries d WHERE d.job_id = $1 ORDER BY d.sequence, d.created_at`,
    [jobId],
  );
  return rows;
}

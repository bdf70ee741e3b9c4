import type { Pool, PoolClient } from 'pg';

type Queryable = Pool | PoolClient;

/** A project's webhook subscription as routes show it: never its secrets (migration 0034_webhook_subscriptions.sql). */
export interface WebhookSubscriptionRow {
  subscription_id: string;
  org_id: string;
  project_slug: string;
  url: string;
  events: string[];
  created_by: string;
  created_at: Date;
  rotated_at: Date | null;
  /** Until when the secret replaced by the last rotation still signs deliveries; null when none does. */
  previous_secret_expires_at: Date | null;
}

/** A subscription with its secrets, for the worker that signs deliveries only, never for an answer. */
export interface SubscriptionSecrets {
  url: string;
  events: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

const COLUMNS = `subscription_id, org_id, project_slug, url, events, created_by, created_at, rotated_at,
  previous_secret_expires_at`;

/** Stores a new subscription; undefined when the project does not exist. */
export async function insertSubscription(
  db: Queryable,
  sub: {
    subscriptionId: string;
    orgId: string;
    projectSlug: string;
    url: string;
    events: string[];
    secret: string;
    createdBy: string;
  },
): Promise<WebhookSubscriptionRow | undefined> {
  const { rows } = await db.query<WebhookSubscriptionRow>(
    `INSERT INTO webhook_subscriptions (subscription_id, org_id, project_slug, url, events, secret, created_by)
     SELECT $1, org_id, slug, $4, $5, $6, $7 FROM projects WHERE org_id = $2 AND slug = $3
     RETURNING ${COLUMNS}`,
    [sub.subscriptionId, sub.orgId, sub.projectSlug, sub.url, sub.events, sub.secret, sub.createdBy],
  );
  return rows[0];
}

/** A project's subscriptions (every project's of the org, or of every org, when not named), oldest first. */
export async function listSubscriptions(
  db: Queryable,
  filter: { orgId?: string; projectSlug?: string },
): Promise<WebhookSubscriptionRow[]> {
  const { rows } = await db.query<WebhookSubscriptionRow>(
    `SELECT ${COLUMNS} FROM webhook_subscriptions
      WHERE ($1::text IS NULL OR org_id = $1) AND ($2::text IS NULL OR project_slug = $2)
      ORDER BY org_id, project_slug, created_at, subscription_id`,
    [filter.orgId ?? null, filter.projectSlug ?? null],
  );
  return rows;
}

/** Removes a subscription of the project; false when it has none by that id. */
export async function deleteSubscription(
  db: Queryable,
  orgId: string,
  projectSlug: string,
  subscriptionId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'DELETE FROM webhook_subscriptions WHERE org_id = $1 AND project_slug = $2 AND subscription_id = $3',
    [orgId, projectSlug, subscriptionId],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Replaces the subscription's secret with `secret`; the one it replaces keeps signing until now + `overlapSeconds`
 * (0: not at all). Undefined when the project has no subscription by that id.
 */
export async function rotateSubscriptionSecret(
  db: Queryable,
  change: { orgId: string; projectSlug: string; subscriptionId: string; secret: string; overlapSeconds: number },
): Promise<WebhookSubscriptionRow | undefined> {
  const { rows } = await db.query<WebhookSubscriptionRow>(
    `UPDATE webhook_subscriptions
        SET previous_secret = CASE WHEN $5::int > 0 THEN secret END,
            previous_secret_expires_at = CASE WHEN $5::int > 0 THEN now() + make_interval(secs => $5::int) END,
            secret = $4, rotated_at = now()
      WHERE org_id = $1 AND project_slug = $2 AND subscription_id = $3
      RETURNING ${COLUMNS}`,
    [change.orgId, change.projectSlug, change.subscriptionId, change.secret, change.overlapSeconds],
  );
  return rows[0];
}

/** Ends a rotation's overlap now: only the current secret signs from here on. Undefined when there is no such subscription. */
export async function expirePreviousSecret(
  db: Queryable,
  orgId: string,
  projectSlug: string,
  subscriptionId: string,
): Promise<WebhookSubscriptionRow | undefined> {
  const { rows } = await db.query<WebhookSubscriptionRow>(
    `UPDATE webhook_subscriptions SET previous_secret = NULL, previous_secret_expires_at = NULL
      WHERE org_id = $1 AND project_slug = $2 AND subscription_id = $3
      RETURNING ${COLUMNS}`,
    [orgId, projectSlug, subscriptionId],
  );
  return rows[0];
}

/** The subscriptions of the job's project (its workflow's), for the append that starts deliveries. */
export async function subscriptionsOfJob(
  db: Queryable,
  jobId: string,
): Promise<{ subscription_id: string; url: string; events: string[] }[]> {
  const { rows } = await db.query<{ subscription_id: string; url: string; events: string[] }>(
    `SELECT s.subscription_id, s.url, s.events
       FROM job_runs j
       JOIN workflows w ON w.workflow_id = j.workflow_id
       JOIN webhook_subscriptions s ON s.org_id = w.org_id AND s.project_slug = w.project_slug
      WHERE j.job_id = $1
      ORDER BY s.created_at, s.subscription_id`,
    [jobId],
  );
  return rows;
}

/** The subscription's URL and secrets, for one delivery attempt. */
export async function getSubscriptionSecrets(
  db: Queryable,
  subscriptionId: string,
): Promise<SubscriptionSecrets | undefined> {
  const { rows } = await db.query<SubscriptionSecrets>(
    `SELECT url, events, secret, previous_secret, previous_secret_expires_at
       FROM webhook_subscriptions WHERE subscription_id = $1`,
    [subscriptionId],
  );
  return rows[0];
}

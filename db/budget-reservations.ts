import type { Pool, PoolClient } from 'pg';
import { budgetsFor } from './tenant-budgets';
import { userBudgetOf } from './user-budget-standings';
import { withTransaction } from './transaction';
import { TERMINAL_JOB_STATUSES } from './jobs';

/**
 * Reservations before a job's model calls and their settlement after (issue 36 item 1, docs/budgets.md). A reservation
 * holds the call's estimated cost against the job's ceiling and its org's and project's monthly budgets until the call
 * is settled (its real cost, added to `job_runs.cost_usd`, the ledger, in the same transaction) or released (the call
 * failed). Every check and every write of one org (or of one job without an org) runs under one transaction-scoped
 * advisory lock, so two calls racing for the last dollars are decided one after the other: the second sees the first's
 * reservation.
 */

/** Which budget a refused reservation would have overshot: the job's ceiling, or a monthly one. */
export type ReservationScope = 'job' | 'user' | 'project' | 'org';

export interface ReserveRequest {
  /** The level's deterministic id for this call (`<level_id>#<round>.<ask>`): a retried activity reserves once. */
  reservationId: string;
  jobId: string;
  levelId: string;
  provider: string;
  model: string;
  /** The job's ceiling as the job now holds it (raised by the submitter's decisions); null: no ceiling. */
  ceilingUsd: number | null;
  nowMs: number;
}

/** What a job has committed: settled calls and reservations still open. */
export interface JobCommitment {
  settledUsd: number;
  reservedUsd: number;
}

export type ReserveOutcome =
  | ({ ok: true; reservationId: string; estimateUsd: number } & JobCommitment)
  | ({
      ok: false;
      scope: ReservationScope;
      estimateUsd: number;
      /** The budget's limit in USD (the job's ceiling, or the monthly budget). */
      limitUsd: number;
      /** What is committed against that budget: settled plus reserved (for a monthly budget, across the org). */
      committedUsd: number;
      org_id?: string;
      project_slug?: string;
      /** A user's own monthly budget: whose. */
      user_id?: string;
    } & JobCommitment);

/** The job as a reservation needs it: where its spend is counted, and its prompt (the demo model's `#cost=`). */
export interface ReservedJob {
  /** The submitter, whose own monthly budget binds the job too (when admission recorded one). */
  createdBy: string;
  orgId: string | null;
  projectSlug: string | null;
  prompt: string;
}

const TERMINAL = TERMINAL_JOB_STATUSES.map((s) => `'${s}'`).join(', ');

/** Sums in numeric(12,6), the columns' scale: cents rounding is the monthly rule's business, not the store's. */
const usd = (v: string | null | undefined): number => Number(v ?? 0);

/**
 * Reserves `estimate(job)` USD for one call if it fits the job's ceiling and every monthly budget of its org and
 * project; otherwise records nothing and says which budget it would overshoot. Idempotent by reservation id.
 */
export async function reserveSpend(
  pool: Pool,
  request: ReserveRequest,
  estimate: (job: ReservedJob) => number,
): Promise<ReserveOutcome> {
  return withTransaction(pool, async (client) => {
    const job = await jobOf(client, request.jobId);
    await lockBudgets(client, job.orgId ?? `job:${request.jobId}`);
    // The user's jobs may span orgs: their own budget has a lock of its own, always taken second.
    await lockBudgets(client, `user:${job.createdBy}`);
    const estimateUsd = roundUsd(estimate(job));
    const existing = await client.query<{ reserved_usd: string }>(
      'SELECT reserved_usd FROM budget_reservations WHERE reservation_id = $1',
      [request.reservationId],
    );
    if (existing.rows[0]) {
      return {
        ok: true,
        reservationId: request.reservationId,
        estimateUsd: usd(existing.rows[0].reserved_usd),
        ...(await commitmentOf(client, request.jobId)),
      };
    }
    const committed = await commitmentOf(client, request.jobId);
    const jobTotal = committed.settledUsd + committed.reservedUsd;
    if (request.ceilingUsd !== null && jobTotal + estimateUsd > request.ceilingUsd + 1e-9) {
      return {
        ok: false,
        scope: 'job',
        estimateUsd,
        limitUsd: request.ceilingUsd,
        committedUsd: jobTotal,
        ...committed,
      };
    }
    const userOver = await userOverrun(client, job.createdBy, estimateUsd, request);
    if (userOver) return { ok: false, estimateUsd, ...userOver, ...committed };
    if (job.orgId !== null) {
      const over = await monthlyOverrun(
        client,
        { orgId: job.orgId, projectSlug: job.projectSlug },
        estimateUsd,
        request,
      );
      if (over) return { ok: false, estimateUsd, ...over, ...committed };
    }
    await client.query(
      `INSERT INTO budget_reservations (reservation_id, job_id, level_id, provider, model, reserved_usd)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [request.reservationId, request.jobId, request.levelId, request.provider, request.model, estimateUsd],
    );
    return {
      ok: true,
      reservationId: request.reservationId,
      estimateUsd,
      settledUsd: committed.settledUsd,
      reservedUsd: committed.reservedUsd + estimateUsd,
    };
  });
}

/**
 * Settles a reservation at what the call cost and adds that to the job's `cost_usd` (the ledger), once: a retried
 * settlement of a settled reservation changes nothing. Answers the job's commitment after it.
 */
export async function settleSpend(
  pool: Pool,
  settlement: { reservationId: string; jobId: string; costUsd: number },
): Promise<JobCommitment> {
  return withTransaction(pool, async (client) => {
    const job = await jobOf(client, settlement.jobId);
    await lockBudgets(client, job.orgId ?? `job:${settlement.jobId}`);
    const cost = roundUsd(settlement.costUsd);
    const { rowCount } = await client.query(
      `UPDATE budget_reservations SET state = 'settled', settled_usd = $2, settled_at = now()
        WHERE reservation_id = $1 AND state = 'reserved'`,
      [settlement.reservationId, cost],
    );
    if (rowCount) {
      await client.query('UPDATE job_runs SET cost_usd = cost_usd + $2 WHERE job_id = $1', [settlement.jobId, cost]);
    }
    return commitmentOf(client, settlement.jobId);
  });
}

/** Releases an open reservation whose call was never charged (it failed, or its level was cancelled). */
export async function releaseSpend(pool: Pool, reservationId: string): Promise<void> {
  await pool.query(
    `UPDATE budget_reservations SET state = 'released' WHERE reservation_id = $1 AND state = 'reserved'`,
    [reservationId],
  );
}

/** A job's settled and open reservations. */
export async function commitmentOf(db: Pool | PoolClient, jobId: string): Promise<JobCommitment> {
  const { rows } = await db.query<{ settled: string; reserved: string }>(
    `SELECT COALESCE(SUM(settled_usd) FILTER (WHERE state = 'settled'), 0) AS settled,
            COALESCE(SUM(reserved_usd) FILTER (WHERE state = 'reserved'), 0) AS reserved
       FROM budget_reservations WHERE job_id = $1`,
    [jobId],
  );
  return { settledUsd: usd(rows[0]?.settled), reservedUsd: usd(rows[0]?.reserved) };
}

async function jobOf(client: PoolClient, jobId: string): Promise<ReservedJob> {
  const { rows } = await client.query<{
    created_by: string;
    org_id: string | null;
    project_slug: string | null;
    prompt: string | null;
  }>(
    `SELECT j.created_by, j.org_id, w.project_slug, p.prompt
       FROM job_runs j
       JOIN workflows w ON w.workflow_id = j.workflow_id
       LEFT JOIN prompt_threads p ON p.prompt_id = j.prompt_id
      WHERE j.job_id = $1`,
    [jobId],
  );
  const row = rows[0];
  if (!row) throw new Error(`job ${jobId} has no row: nothing to reserve against`);
  return { createdBy: row.created_by, orgId: row.org_id, projectSlug: row.project_slug, prompt: row.prompt ?? '' };
}

/** One org's budget checks and writes, one at a time (released at commit). */
async function lockBudgets(client: PoolClient, key: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('keel-budget:' || $1, 0))`, [key]);
}

/**
 * The project's and the org's monthly budget, project first, checked against this month's ledger spend (job_runs
 * .cost_usd, settled calls included as they settle) plus the open reservations of the org's unfinished jobs. The rule
 * is admission's (jobs/tenant-budgets.ts `against`): over once spend, rounded up to cents, reaches the budget; and a
 * call whose estimate would pass it does not start. One statement, so ledger and reservations are read at one snapshot.
 */
async function monthlyOverrun(
  client: PoolClient,
  target: { orgId: string; projectSlug: string | null },
  estimateUsd: number,
  request: ReserveRequest,
): Promise<
  | { scope: 'project' | 'org'; limitUsd: number; committedUsd: number; org_id: string; project_slug?: string }
  | undefined
> {
  const rows = await budgetsFor(
    client,
    target.orgId,
    target.projectSlug === null ? undefined : { orgId: target.orgId, slug: target.projectSlug },
  );
  if (rows.length === 0) return undefined;
  const since = monthStart(request.nowMs);
  const { rows: spend } = await client.query<{
    org_settled: string;
    org_open: string;
    project_settled: string;
    project_open: string;
  }>(
    `WITH month AS (
       SELECT j.job_id, j.status, j.cost_usd, w.project_slug
         FROM job_runs j JOIN workflows w ON w.workflow_id = j.workflow_id
        WHERE j.created_at >= $1 AND j.org_id = $2
     ), open AS (
       SELECT m.project_slug, r.reserved_usd FROM budget_reservations r JOIN month m ON m.job_id = r.job_id
        WHERE r.state = 'reserved' AND m.status NOT IN (${TERMINAL})
     )
     SELECT (SELECT COALESCE(SUM(cost_usd), 0) FROM month) AS org_settled,
            (SELECT COALESCE(SUM(reserved_usd), 0) FROM open) AS org_open,
            (SELECT COALESCE(SUM(cost_usd), 0) FROM month WHERE project_slug = $3) AS project_settled,
            (SELECT COALESCE(SUM(reserved_usd), 0) FROM open WHERE project_slug = $3) AS project_open`,
    [since, target.orgId, target.projectSlug],
  );
  const figures = spend[0]!;
  const sorted = [...rows].sort((a, b) => (a.project_slug === null ? 1 : 0) - (b.project_slug === null ? 1 : 0));
  for (const row of sorted) {
    const project = row.project_slug !== null;
    const committed = project
      ? usd(figures.project_settled) + usd(figures.project_open)
      : usd(figures.org_settled) + usd(figures.org_open);
    const limitUsd = row.budget_cents / 100;
    const reached = Math.ceil(roundUsd(committed) * 100) >= row.budget_cents;
    if (reached || committed + estimateUsd > limitUsd + 1e-9) {
      return {
        scope: project ? 'project' : 'org',
        limitUsd,
        committedUsd: roundUsd(committed),
        org_id: row.org_id,
        ...(project ? { project_slug: row.project_slug! } : {}),
      };
    }
  }
  return undefined;
}

/**
 * The submitter's own monthly budget (the identity service's, as admission last recorded it: migration 0033) against
 * this month's spend of all their jobs (job_runs.created_by, as the ledger sums a user's) plus the open reservations of
 * their unfinished jobs, by the same rule as the org's and project's. Nothing when no budget was recorded or it is null
 * (an admin, a machine user).
 */
async function userOverrun(
  client: PoolClient,
  userId: string,
  estimateUsd: number,
  request: ReserveRequest,
): Promise<{ scope: 'user'; limitUsd: number; committedUsd: number; user_id: string } | undefined> {
  const budgetCents = await userBudgetOf(client, userId);
  if (budgetCents === undefined || budgetCents === null) return undefined;
  const { rows } = await client.query<{ settled: string; open: string }>(
    `WITH month AS (
       SELECT job_id, status, cost_usd FROM job_runs WHERE created_at >= $1 AND created_by = $2
     )
     SELECT (SELECT COALESCE(SUM(cost_usd), 0) FROM month) AS settled,
            (SELECT COALESCE(SUM(r.reserved_usd), 0) FROM budget_reservations r JOIN month m ON m.job_id = r.job_id
              WHERE r.state = 'reserved' AND m.status NOT IN (${TERMINAL})) AS open`,
    [monthStart(request.nowMs), userId],
  );
  const committed = roundUsd(usd(rows[0]?.settled) + usd(rows[0]?.open));
  const limitUsd = budgetCents / 100;
  const reached = Math.ceil(committed * 100) >= budgetCents;
  if (!reached && committed + estimateUsd <= limitUsd + 1e-9) return undefined;
  return { scope: 'user', limitUsd, committedUsd: committed, user_id: userId };
}

/** The first instant of the calendar month (UTC) of `nowMs`, as the ledger sums spend (jobs/budget.ts monthStart). */
function monthStart(nowMs: number): Date {
  const now = new Date(nowMs);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** To the columns' six decimals, so what is compared is what is stored. */
function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** One model call's reservation as a job's page and `keel budget --job` show it. */
export interface ReservationRow {
  reservation_id: string;
  level_id: string;
  provider: string;
  model: string;
  state: 'reserved' | 'settled' | 'released';
  reserved_usd: number;
  settled_usd: number | null;
  created_at: Date;
  settled_at: Date | null;
}

/** A job's reservations, oldest first, at most `limit` of them (the totals are `reservationTotals`). */
export async function listJobReservations(db: Pool, jobId: string, limit: number): Promise<ReservationRow[]> {
  const { rows } = await db.query<Omit<ReservationRow, 'reserved_usd' | 'settled_usd'> & Record<string, unknown>>(
    `SELECT reservation_id, level_id, provider, model, state, reserved_usd, settled_usd, created_at, settled_at
       FROM budget_reservations WHERE job_id = $1 ORDER BY created_at, reservation_id LIMIT $2`,
    [jobId, limit],
  );
  return rows.map((row) => ({
    ...row,
    reserved_usd: usd(row.reserved_usd as string),
    settled_usd: row.settled_usd === null ? null : usd(row.settled_usd as string),
  }));
}

/**
 * What a job's calls reserved and what they settled at: `reserved_usd` sums every call's estimate (settled, open or
 * released), `settled_usd` what the settled calls cost (the job's `cost_usd` once they are all settled), `open_usd`
 * the reservations not yet settled or released (a job that ended with some no longer holds them against a budget).
 */
export interface ReservationTotals {
  calls: number;
  reserved_usd: number;
  settled_usd: number;
  open_usd: number;
  released_usd: number;
}

export async function reservationTotals(db: Pool, jobId: string): Promise<ReservationTotals> {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT COUNT(*) AS calls,
            COALESCE(SUM(reserved_usd), 0) AS reserved,
            COALESCE(SUM(settled_usd) FILTER (WHERE state = 'settled'), 0) AS settled,
            COALESCE(SUM(reserved_usd) FILTER (WHERE state = 'reserved'), 0) AS open,
            COALESCE(SUM(reserved_usd) FILTER (WHERE state = 'released'), 0) AS released
       FROM budget_reservations WHERE job_id = $1`,
    [jobId],
  );
  const row = rows[0]!;
  return {
    calls: Number(row.calls),
    reserved_usd: usd(row.reserved),
    settled_usd: usd(row.settled),
    open_usd: usd(row.open),
    released_usd: usd(row.released),
  };
}

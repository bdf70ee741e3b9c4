/**
 * What the identity service reads of the ingest service's ledger: who created a workflow or a job (the preflight's
 * ownership check) and how much a user's, an org's or a project's jobs cost since a given instant (budgets, the admin
 * listings; docs/budgets.md). The ingest API reads the same figures through the same readers below. The ledger
 * (`workflows`, `job_runs`) belongs to the ingest service; the identity service reads it in one of two ways
 * (docs/identity.md, "Whose data"):
 *
 * - `databaseLedger`: the two services share a database (`npm start`, one database with two schemas), so the identity
 *   service reads the ingest schema's tables directly;
 * - `ingestApiLedger`: each service owns its database (the chart's default), so the identity service asks the ingest
 *   API's internal routes (api/routes/internal-ledger.ts), authenticated by the shared internal token.
 */
import { z } from 'zod';
import type { IngestTables } from '../db/qualified-tables';
import type { Queryable } from '../db/users';

export const LedgerOwners = z.object({
  /** The job named by `job`, when there is one. */
  job: z.object({ workflow_id: z.string(), created_by: z.string() }).nullable(),
  /** The workflow named by `workflow`, when there is one. */
  workflow: z.object({ created_by: z.string() }).nullable(),
});
export type LedgerOwners = z.infer<typeof LedgerOwners>;

export const LedgerOwnersQuery = z.strictObject({
  job: z.string().min(1).max(200).optional(),
  workflow: z.string().min(1).max(200).optional(),
});
export type LedgerOwnersQuery = z.infer<typeof LedgerOwnersQuery>;

export const LedgerSpend = z.object({
  since: z.string(),
  /** Every user with spend since `since` (or only `user`, when named), in whole cents rounded up. */
  users: z.array(z.object({ user_id: z.string(), cents: z.number().int().nonnegative() })),
});
export type LedgerSpend = z.infer<typeof LedgerSpend>;

export const LedgerSpendQuery = z.strictObject({
  since: z.iso.datetime({ offset: true }),
  user: z.string().min(1).max(200).optional(),
});

/** Org and project spend since `since`, in whole cents rounded up, like a user's. */
export const TenantSpend = z.object({
  since: z.string(),
  /** Every org with spend since `since` (or only `org`, when named): the jobs whose `org_id` it is. */
  orgs: z.array(z.object({ org_id: z.string(), cents: z.number().int().nonnegative() })),
  /** Every project with spend (of `org`, when named): the jobs of the workflows in it. */
  projects: z.array(z.object({ org_id: z.string(), project_slug: z.string(), cents: z.number().int().nonnegative() })),
});
export type TenantSpend = z.infer<typeof TenantSpend>;

export const TenantSpendQuery = z.strictObject({
  since: z.iso.datetime({ offset: true }),
  org: z.string().min(1).max(128).optional(),
});

export const LEDGER_OWNERS_ROUTE = '/internal/ledger/owners';
export const LEDGER_SPEND_ROUTE = '/internal/ledger/spend';
export const LEDGER_TENANT_SPEND_ROUTE = '/internal/ledger/tenant-spend';

export interface Ledger {
  owners(query: LedgerOwnersQuery): Promise<LedgerOwners>;
  /** One user's spend since `since`, in whole cents rounded up. */
  spendCents(userId: string, since: Date): Promise<number>;
  /** Every user's spend since `since`: users without spend are absent. */
  spendByUser(since: Date): Promise<Map<string, number>>;
  /** Orgs' and projects' spend since `since` (of one org, when named): those without spend are absent. */
  tenantSpend(since: Date, orgId?: string): Promise<TenantSpend>;
}

/** The ledger's own queries, over whichever pool reaches the ingest schema. */
export async function readOwners(db: Queryable, tables: IngestTables, query: LedgerOwnersQuery): Promise<LedgerOwners> {
  const [job, workflow] = await Promise.all([
    query.job
      ? db.query<{ workflow_id: string; created_by: string }>(
          `SELECT workflow_id, created_by FROM ${tables.jobRuns} WHERE job_id = $1`,
          [query.job],
        )
      : undefined,
    query.workflow
      ? db.query<{ created_by: string }>(`SELECT created_by FROM ${tables.workflows} WHERE workflow_id = $1`, [
          query.workflow,
        ])
      : undefined,
  ]);
  return { job: job?.rows[0] ?? null, workflow: workflow?.rows[0] ?? null };
}

export async function readSpend(
  db: Queryable,
  tables: IngestTables,
  since: Date,
  userId?: string,
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ created_by: string; cents: string }>(
    `SELECT created_by, CEIL(SUM(cost_usd) * 100)::bigint AS cents
       FROM ${tables.jobRuns} WHERE created_at >= $1 AND ($2::text IS NULL OR created_by = $2) GROUP BY created_by`,
    [since, userId ?? null],
  );
  return new Map(rows.map((row) => [row.created_by, Number(row.cents)]));
}

/**
 * Org spend sums the jobs of the org (`job_runs.org_id`, the submitter's org); project spend the jobs of the project's
 * workflows (`workflows.org_id`, `project_slug`). Rounded up to whole cents per org and per project, as a user's is.
 */
export async function readTenantSpend(
  db: Queryable,
  tables: IngestTables,
  since: Date,
  orgId?: string,
): Promise<TenantSpend> {
  const [orgs, projects] = await Promise.all([
    db.query<{ org_id: string; cents: string }>(
      `SELECT org_id, CEIL(SUM(cost_usd) * 100)::bigint AS cents
         FROM ${tables.jobRuns}
        WHERE created_at >= $1 AND org_id IS NOT NULL AND ($2::text IS NULL OR org_id = $2)
        GROUP BY org_id`,
      [since, orgId ?? null],
    ),
    db.query<{ org_id: string; project_slug: string; cents: string }>(
      `SELECT w.org_id, w.project_slug, CEIL(SUM(j.cost_usd) * 100)::bigint AS cents
         FROM ${tables.jobRuns} j JOIN ${tables.workflows} w ON w.workflow_id = j.workflow_id
        WHERE j.created_at >= $1 AND w.org_id IS NOT NULL AND w.project_slug IS NOT NULL
          AND ($2::text IS NULL OR w.org_id = $2)
        GROUP BY w.org_id, w.project_slug`,
      [since, orgId ?? null],
    ),
  ]);
  return {
    since: since.toISOString(),
    orgs: orgs.rows.map((row) => ({ org_id: row.org_id, cents: Number(row.cents) })),
    projects: projects.rows.map((row) => ({
      org_id: row.org_id,
      project_slug: row.project_slug,
      cents: Number(row.cents),
    })),
  };
}

/** The two services share a database: read the ingest schema's tables directly. */
export function databaseLedger(db: Queryable, tables: IngestTables): Ledger {
  return {
    owners: (query) => readOwners(db, tables, query),
    spendCents: async (userId, since) => (await readSpend(db, tables, since, userId)).get(userId) ?? 0,
    spendByUser: (since) => readSpend(db, tables, since),
    tenantSpend: (since, orgId) => readTenantSpend(db, tables, since, orgId),
  };
}

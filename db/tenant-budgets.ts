import type { Pool } from 'pg';
import { withTransaction } from './transaction';
import type { Queryable } from './users';

/** An org's (project_slug null) or a project's monthly budget (migration 0021_tenant_budgets.sql). */
export interface TenantBudgetRow {
  org_id: string;
  project_slug: string | null;
  budget_cents: number;
  updated_by: string;
  updated_at: Date;
}

const COLUMNS = 'org_id, project_slug, budget_cents, updated_by, updated_at';

/**
 * The budgets that bind a job of org `orgId` in `project` (its org and slug), when it has one: at most two rows, the
 * org's and the project's.
 */
export async function budgetsFor(
  db: Queryable,
  orgId: string,
  project: { orgId: string; slug: string } | undefined,
): Promise<TenantBudgetRow[]> {
  const { rows } = await db.query<TenantBudgetRow>(
    `SELECT ${COLUMNS} FROM tenant_budgets
      WHERE (org_id = $1 AND project_slug IS NULL) OR (org_id = $2 AND project_slug = $3)`,
    [orgId, project?.orgId ?? null, project?.slug ?? null],
  );
  return rows;
}

/** Every budget (of one org, when named), orgs first. */
export async function listTenantBudgets(db: Queryable, orgId: string | null): Promise<TenantBudgetRow[]> {
  const { rows } = await db.query<TenantBudgetRow>(
    `SELECT ${COLUMNS} FROM tenant_budgets WHERE $1::text IS NULL OR org_id = $1
      ORDER BY org_id, project_slug NULLS FIRST`,
    [orgId],
  );
  return rows;
}

/** Projects with their org (of one org, when named); projects from before orgs (null org) have no budget. */
export async function listOrgProjects(
  db: Queryable,
  orgId: string | null,
): Promise<Array<{ org_id: string; slug: string; name: string }>> {
  const { rows } = await db.query<{ org_id: string; slug: string; name: string }>(
    `SELECT org_id, slug, name FROM projects WHERE org_id IS NOT NULL AND ($1::text IS NULL OR org_id = $1)
      ORDER BY org_id, slug`,
    [orgId],
  );
  return rows;
}

/**
 * Sets (or, with null, removes) an org's or a project's budget and records the change with the value before, in one
 * transaction. A project's budget needs the project: for one that does not exist, nothing changes and the answer is
 * `missing_project`.
 */
export async function setTenantBudget(
  pool: Pool,
  change: { orgId: string; projectSlug: string | null; budgetCents: number | null; changedBy: string },
): Promise<{ ok: true; before: number | null } | { ok: false; reason: 'missing_project' }> {
  const key = [change.orgId, change.projectSlug];
  return withTransaction(pool, async (client) => {
    if (change.projectSlug !== null) {
      // Locked so the project cannot go while its budget is written (the foreign key would refuse it anyway).
      const project = await client.query('SELECT 1 FROM projects WHERE org_id = $1 AND slug = $2 FOR KEY SHARE', key);
      if (project.rowCount === 0) return { ok: false, reason: 'missing_project' } as const;
    }
    const before = await client.query<{ budget_cents: number }>(
      'SELECT budget_cents FROM tenant_budgets WHERE org_id = $1 AND project_slug IS NOT DISTINCT FROM $2 FOR UPDATE',
      key,
    );
    if (change.budgetCents === null) {
      await client.query('DELETE FROM tenant_budgets WHERE org_id = $1 AND project_slug IS NOT DISTINCT FROM $2', key);
    } else {
      await client.query(
        `INSERT INTO tenant_budgets (org_id, project_slug, budget_cents, updated_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT ON CONSTRAINT tenant_budgets_key
         DO UPDATE SET budget_cents = EXCLUDED.budget_cents, updated_by = EXCLUDED.updated_by, updated_at = now()`,
        [...key, change.budgetCents, change.changedBy],
      );
    }
    const beforeCents = before.rows[0]?.budget_cents ?? null;
    await client.query(
      `INSERT INTO tenant_budget_changes (org_id, project_slug, before_cents, after_cents, changed_by)
       VALUES ($1, $2, $3, $4, $5)`,
      [...key, beforeCents, change.budgetCents, change.changedBy],
    );
    return { ok: true, before: beforeCents } as const;
  });
}

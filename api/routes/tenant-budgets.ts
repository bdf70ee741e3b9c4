import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OWN_INGEST_TABLES } from '../../db/qualified-tables';
import { listOrgProjects, listTenantBudgets, setTenantBudget, type TenantBudgetRow } from '../../db/tenant-budgets';
import { monthStart } from '../../jobs/budget';
import { databaseLedger, type TenantSpend } from '../../jobs/ledger';
import { against, spentCentsOf } from '../../jobs/tenant-budgets';
import type { Principal } from '../../jobs/visibility';
import { Forbidden, NotFound } from '../../refusals/refusal';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

/** An org id as tokens carry it (stack/console-org.ts): 1 to 128 characters without whitespace. */
const OrgId = z.string().regex(/^\S{1,128}$/, 'an org id: 1 to 128 characters without whitespace');
const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes')
  .max(64);

/** A budget an admin sets: whole US cents a month, up to a million dollars; null removes the budget. */
export const SetTenantBudgetSchema = z.strictObject({
  budget_cents: z.number().int().min(0).max(100_000_000).nullable(),
});

const Month = {
  /** null: no budget (spend is still counted). */
  budget_cents: z.number().int().nullable(),
  spent_cents: z.number().int(),
  /** null without a budget; 0 once spend has reached it. */
  remaining_cents: z.number().int().nullable(),
  over_budget: z.boolean(),
};

export const OrgBudgetSchema = z.object({ org_id: z.string(), ...Month });
export const ProjectBudgetSchema = z.object({
  org_id: z.string(),
  project_slug: z.string(),
  name: z.string(),
  ...Month,
});
export const TenantBudgetsSchema = z.object({
  /** First instant (UTC) of the month the spend is summed over. */
  period_start: z.string(),
  orgs: z.array(OrgBudgetSchema),
  projects: z.array(ProjectBudgetSchema),
});
export type TenantBudgets = z.infer<typeof TenantBudgetsSchema>;

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

/** Budgets are an admin's to read and set: an admin token, or an admin signed in to the console (acting). */
function requireAdmin(principal: Principal): void {
  if (!principal.is_admin) {
    throw new Forbidden('admin_only', 'org and project budgets are read and set by admins only');
  }
}

function month(budgetCents: number | null, spentCents: number) {
  return budgetCents === null
    ? { budget_cents: null, spent_cents: spentCents, remaining_cents: null, over_budget: false }
    : { budget_cents: budgetCents, spent_cents: spentCents, ...against(budgetCents, spentCents) };
}

/**
 * The admin's view and settings of orgs' and projects' monthly budgets (docs/budgets.md): every org and project with
 * its budget, month-to-date spend from the ledger (jobs/ledger.ts, as the identity service reads it) and what is left.
 * Users' budgets stay the identity service's (`PATCH /admin/users/:id`).
 */
/**
 * Every org's (or one org's) and its projects' budgets this month with their spend from the ledger: the admin's
 * listing, and a member's own org in `GET /v1/me/budgets` (api/routes/spend.ts).
 */
export async function readTenantBudgets(pool: ApiDeps['pool'], orgId: string | null): Promise<TenantBudgets> {
  const since = monthStart(Date.now());
  const [budgets, projects, spend, tokenOrgs] = await Promise.all([
    listTenantBudgets(pool, orgId),
    listOrgProjects(pool, orgId),
    databaseLedger(pool, OWN_INGEST_TABLES).tenantSpend(since, orgId ?? undefined),
    pool.query<{ org_id: string }>(
      'SELECT DISTINCT org_id FROM api_tokens WHERE revoked_at IS NULL AND ($1::text IS NULL OR org_id = $1)',
      [orgId],
    ),
  ]);
  return present(since, budgets, projects, spend, orgId === null ? tokenOrgs.rows.map((r) => r.org_id) : [orgId]);
}

export function tenantBudgetRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const view = (orgId: string | null) => readTenantBudgets(deps.pool, orgId);

  return async (app) => {
    app.get(
      '/v1/admin/budgets',
      {
        schema: {
          querystring: z.strictObject({ org: OrgId.optional() }),
          response: { 200: TenantBudgetsSchema, ...errors },
        },
      },
      async (request) => {
        requireAdmin(principalOf(request));
        return view(request.query.org ?? null);
      },
    );

    app.put(
      '/v1/admin/budgets/orgs/:org',
      {
        schema: {
          params: z.object({ org: OrgId }),
          body: SetTenantBudgetSchema,
          response: { 200: OrgBudgetSchema, ...errors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        requireAdmin(principal);
        const { org } = request.params;
        await setTenantBudget(deps.pool, {
          orgId: org,
          projectSlug: null,
          budgetCents: request.body.budget_cents,
          changedBy: principal.user_id,
        });
        return (await view(org)).orgs.find((o) => o.org_id === org)!;
      },
    );

    app.put(
      '/v1/admin/budgets/orgs/:org/projects/:slug',
      {
        schema: {
          params: z.object({ org: OrgId, slug: Slug }),
          body: SetTenantBudgetSchema,
          response: { 200: ProjectBudgetSchema, 404: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        requireAdmin(principal);
        const { org, slug } = request.params;
        const set = await setTenantBudget(deps.pool, {
          orgId: org,
          projectSlug: slug,
          budgetCents: request.body.budget_cents,
          changedBy: principal.user_id,
        });
        if (!set.ok) throw new NotFound(`project ${slug} of org ${org}`);
        return (await view(org)).projects.find((p) => p.project_slug === slug)!;
      },
    );
  };
}

/**
 * Every org that has a budget, spend this month, a project or a live token, and every project, each with its month.
 * Orgs and projects sort by id.
 */
function present(
  since: Date,
  budgets: TenantBudgetRow[],
  projects: Array<{ org_id: string; slug: string; name: string }>,
  spend: TenantSpend,
  knownOrgs: string[],
): TenantBudgets {
  const budgetOf = (orgId: string, slug: string | null) =>
    budgets.find((b) => b.org_id === orgId && b.project_slug === slug)?.budget_cents ?? null;
  const orgIds = new Set([
    ...knownOrgs,
    ...budgets.map((b) => b.org_id),
    ...projects.map((p) => p.org_id),
    ...spend.orgs.map((o) => o.org_id),
  ]);
  return {
    period_start: since.toISOString(),
    orgs: [...orgIds].sort().map((orgId) => ({
      org_id: orgId,
      ...month(budgetOf(orgId, null), spentCentsOf(spend, orgId, null)),
    })),
    projects: projects.map((p) => ({
      org_id: p.org_id,
      project_slug: p.slug,
      name: p.name,
      ...month(budgetOf(p.org_id, p.slug), spentCentsOf(spend, p.org_id, p.slug)),
    })),
  };
}

import * as z from 'zod/mini';

/** GET /api/v1/admin/budgets (the ingest API's /v1/admin/budgets): orgs and projects with their month. */
const Month = {
  budget_cents: z.nullable(z.number()),
  spent_cents: z.number(),
  remaining_cents: z.nullable(z.number()),
  over_budget: z.boolean(),
};
export const OrgBudget = z.looseObject({ org_id: z.string(), ...Month });
export type OrgBudget = z.infer<typeof OrgBudget>;
export const ProjectBudget = z.looseObject({
  org_id: z.string(),
  project_slug: z.string(),
  name: z.string(),
  ...Month,
});
export type ProjectBudget = z.infer<typeof ProjectBudget>;
export const TenantBudgets = z.looseObject({
  period_start: z.string(),
  orgs: z.array(OrgBudget),
  projects: z.array(ProjectBudget),
});

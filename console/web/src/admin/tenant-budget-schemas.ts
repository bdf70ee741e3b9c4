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

/** GET /api/v1/me/budgets: the signed-in person's own month, their org's and its projects' budgets. */
export const MyBudgets = z.looseObject({
  user_id: z.string(),
  period_start: z.string(),
  user: z.looseObject({ exempt: z.boolean(), ...Month }),
  org: OrgBudget,
  projects: z.array(ProjectBudget),
});
export type MyBudgets = z.infer<typeof MyBudgets>;

const ReservationTotals = z.looseObject({
  calls: z.number(),
  reserved_usd: z.number(),
  settled_usd: z.number(),
  open_usd: z.number(),
  released_usd: z.number(),
});

/** GET /api/v1/jobs/:id/reservations: each model call's reservation and what it settled at. */
export const JobReservations = z.looseObject({
  job_id: z.string(),
  totals: ReservationTotals,
  calls: z.array(
    z.looseObject({
      reservation_id: z.string(),
      level_id: z.string(),
      provider: z.string(),
      model: z.string(),
      state: z.string(),
      reserved_usd: z.number(),
      settled_usd: z.nullable(z.number()),
      created_at: z.string(),
      settled_at: z.nullable(z.string()),
    }),
  ),
});
export type JobReservations = z.infer<typeof JobReservations>;

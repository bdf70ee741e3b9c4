import * as z from 'zod/mini';

/** GET /api/v1/me/spend: the signed-in person's spend since the period start, by day and by job. */
export const MySpend = z.looseObject({
  since: z.string(),
  total_usd: z.number(),
  jobs: z.number(),
  by_day: z.array(z.looseObject({ day: z.string(), jobs: z.number(), cost_usd: z.number() })),
  by_job: z.array(
    z.looseObject({
      job_id: z.string(),
      workflow_id: z.string(),
      status: z.string(),
      title: z.string(),
      created_at: z.string(),
      cost_usd: z.number(),
    }),
  ),
});
export type MySpend = z.infer<typeof MySpend>;

/**
 * The aggregate behind GET /v1/stats, over stored rows only: job runs (status, tier, cost, reasoning tokens, strongest
 * effort rung), their workflows' projects, per-model usage (job_model_usage, kept from the event log by a trigger) and
 * approvals. One statement; its filtered job set is a CTE read once by every aggregate. With an org it walks
 * job_runs_org_created_idx; an admin's all-orgs window walks job_runs_created_idx.
 */
import type { Pool } from 'pg';

export interface StatsFilter {
  /** null: every org (admins). */
  orgId: string | null;
  since?: string;
  until?: string;
  projectSlug?: string;
}

export interface StatsRow {
  by_status: Record<string, number> | null;
  by_tier: Array<{ tier: string | null; jobs: number; cost_usd: string; reasoning_tokens: string }> | null;
  by_project: Array<{ project_slug: string | null; jobs: number; cost_usd: string; reasoning_tokens: string }> | null;
  by_effort: Record<string, number> | null;
  by_model: Array<{
    provider: string;
    model: string;
    calls: number;
    cost_usd: string;
    reasoning_tokens: string;
    fallbacks: number;
  }> | null;
  approvals: Record<string, number> | null;
  totals: { jobs: number; cost_usd: string; reasoning_tokens: string };
}

/** The statement as text and values, exported so the bench runs exactly what the API runs. */
export function statsQuery(filter: StatsFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const param = (v: unknown) => `$${values.push(v)}`;
  const where: string[] = [];
  if (filter.orgId !== null) where.push(`j.org_id = ${param(filter.orgId)}`);
  if (filter.since) where.push(`j.created_at >= ${param(filter.since)}::timestamptz`);
  if (filter.until) where.push(`j.created_at < ${param(filter.until)}::timestamptz`);
  if (filter.projectSlug) where.push(`w.project_slug = ${param(filter.projectSlug)}`);
  const text = `
WITH j AS MATERIALIZED (
  SELECT j.job_id, j.status, j.model_tier, j.cost_usd, j.reasoning_tokens, j.max_effort, w.project_slug
    FROM job_runs j JOIN workflows w ON w.workflow_id = j.workflow_id
   ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
)
SELECT
  (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM j GROUP BY status) s) AS by_status,
  (SELECT jsonb_agg(t ORDER BY t.tier NULLS LAST) FROM (
     SELECT model_tier AS tier, count(*)::int AS jobs, sum(cost_usd)::text AS cost_usd,
            sum(reasoning_tokens)::text AS reasoning_tokens
       FROM j GROUP BY model_tier) t) AS by_tier,
  (SELECT jsonb_agg(p ORDER BY p.project_slug NULLS LAST) FROM (
     SELECT project_slug, count(*)::int AS jobs, sum(cost_usd)::text AS cost_usd,
            sum(reasoning_tokens)::text AS reasoning_tokens
       FROM j GROUP BY project_slug) p) AS by_project,
  (SELECT jsonb_object_agg(COALESCE(max_effort, 'none'), n) FROM (
     SELECT max_effort, count(*)::int AS n FROM j GROUP BY max_effort) e) AS by_effort,
  (SELECT jsonb_agg(m ORDER BY m.provider, m.model) FROM (
     SELECT u.provider, u.model, sum(u.calls)::int AS calls, sum(u.cost_usd)::text AS cost_usd,
            sum(u.reasoning_tokens)::text AS reasoning_tokens, sum(u.fallbacks)::int AS fallbacks
       FROM job_model_usage u JOIN j ON j.job_id = u.job_id GROUP BY u.provider, u.model) m) AS by_model,
  (SELECT jsonb_object_agg(status, n) FROM (
     SELECT a.status, count(*)::int AS n FROM approvals a JOIN j ON j.job_id = a.job_id GROUP BY a.status) a)
     AS approvals,
  (SELECT jsonb_build_object('jobs', count(*)::int, 'cost_usd', COALESCE(sum(cost_usd), 0)::text,
                             'reasoning_tokens', COALESCE(sum(reasoning_tokens), 0)::text) FROM j) AS totals`;
  return { text, values };
}

export async function readStats(pool: Pool, filter: StatsFilter): Promise<StatsRow> {
  const { text, values } = statsQuery(filter);
  const { rows } = await pool.query<StatsRow>(text, values);
  return rows[0]!;
}

/**
 * The aggregate behind GET /v1/stats, over stored rows only: job runs (status, tier, project, cost, tokens,
 * strongest effort rung), per-model usage (job_model_usage, kept from the event log by a trigger) and approvals.
 *
 * One statement of three parts, each one pass: the jobs in the window are grouped once with GROUPING SETS (by status,
 * tier, project, effort, and the total); per-model usage is grouped from its own copy of the job's org, time and
 * project; approvals join their few jobs by key. With an org the job and usage parts are index-only range scans of
 * (org_id, created_at) covering indexes; an admin's all-orgs window scans the (created_at) ones.
 */
import type { Pool } from 'pg';

export interface StatsFilter {
  /** null: every org (admins). */
  orgId: string | null;
  since?: string;
  until?: string;
  projectSlug?: string;
}

/** One grouping of the jobs part: `set` says which column it is grouped by (`total` for all of them). */
export interface JobGroup {
  set: 'status' | 'tier' | 'project' | 'effort' | 'total';
  key: string | null;
  jobs: number;
  cost_usd: string;
  reasoning_tokens: string;
  prompt_tokens: string;
  completion_tokens: string;
}

export interface ModelUsageRow {
  provider: string;
  model: string;
  calls: number;
  cost_usd: string;
  reasoning_tokens: string;
  prompt_tokens: string;
  completion_tokens: string;
  fallbacks: number;
}

export interface StatsRow {
  groups: JobGroup[] | null;
  by_model: ModelUsageRow[] | null;
  approvals: Record<string, number> | null;
}

/** The statement as text and values, exported so the bench runs exactly what the API runs. */
export function statsQuery(filter: StatsFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const param = (v: unknown) => `$${values.push(v)}`;
  const where = (org: string, created: string, project: string): string => {
    const parts: string[] = [];
    if (filter.orgId !== null) parts.push(`${org} = ${param(filter.orgId)}`);
    if (filter.since) parts.push(`${created} >= ${param(filter.since)}::timestamptz`);
    if (filter.until) parts.push(`${created} < ${param(filter.until)}::timestamptz`);
    if (filter.projectSlug) parts.push(`${project} = ${param(filter.projectSlug)}`);
    return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
  };
  const jobs = where('j.org_id', 'j.created_at', 'j.stats_project');
  const usage = where('u.org_id', 'u.created_at', 'u.project_slug');
  const approvalJobs = where('j.org_id', 'j.created_at', 'j.stats_project');
  const text = `
SELECT
  (SELECT jsonb_agg(g) FROM (
     SELECT CASE GROUPING(j.status, j.model_tier, j.stats_project, j.max_effort)
              WHEN 7 THEN 'status' WHEN 11 THEN 'tier' WHEN 13 THEN 'project' WHEN 14 THEN 'effort' ELSE 'total' END
              AS set,
            COALESCE(j.status, j.model_tier, j.stats_project, j.max_effort) AS key,
            count(*)::int AS jobs, COALESCE(sum(j.cost_usd), 0)::text AS cost_usd,
            COALESCE(sum(j.reasoning_tokens), 0)::text AS reasoning_tokens,
            COALESCE(sum(j.prompt_tokens), 0)::text AS prompt_tokens,
            COALESCE(sum(j.completion_tokens), 0)::text AS completion_tokens
       FROM job_runs j ${jobs}
      GROUP BY GROUPING SETS ((j.status), (j.model_tier), (j.stats_project), (j.max_effort), ())) g) AS groups,
  (SELECT jsonb_agg(m ORDER BY m.provider, m.model) FROM (
     SELECT u.provider, u.model, sum(u.calls)::int AS calls, sum(u.cost_usd)::text AS cost_usd,
            sum(u.reasoning_tokens)::text AS reasoning_tokens, sum(u.prompt_tokens)::text AS prompt_tokens,
            sum(u.completion_tokens)::text AS completion_tokens, sum(u.fallbacks)::int AS fallbacks
       FROM job_model_usage u ${usage}
      GROUP BY u.provider, u.model) m) AS by_model,
  (SELECT jsonb_object_agg(a.status, a.n) FROM (
     SELECT a.status, count(*)::int AS n FROM approvals a JOIN job_runs j ON j.job_id = a.job_id ${approvalJobs}
      GROUP BY a.status) a) AS approvals`;
  return { text, values };
}

export async function readStats(pool: Pool, filter: StatsFilter): Promise<StatsRow> {
  const { text, values } = statsQuery(filter);
  const { rows } = await pool.query<StatsRow>(text, values);
  return rows[0]!;
}

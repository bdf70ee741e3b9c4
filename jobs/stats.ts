import { readStats, type JobGroup, type StatsFilter } from '../db/stats';
import type { TokenOwner } from '../db/tokens';
import { Invalid, NotFound } from '../refusals/refusal';
import type { JobsDeps } from './deps';

const RUNGS = ['none', 'low', 'medium', 'high', 'max'];

export interface StatsQuery {
  since?: string;
  until?: string;
  project_slug?: string;
  org_id?: string;
}

/**
 * Stats over stored rows for the caller's org (an admin: every org, or the one named by `org_id`). A non-admin naming
 * another org gets 404, as for any other org's records.
 */
export async function computeStats(deps: Pick<JobsDeps, 'pool'>, principal: TokenOwner, query: StatsQuery) {
  if (query.since && query.until && Date.parse(query.since) >= Date.parse(query.until)) {
    throw new Invalid('invalid_request', 'since: must be before until');
  }
  if (!principal.is_admin && query.org_id !== undefined && query.org_id !== principal.org_id) {
    throw new NotFound(`org ${query.org_id}`);
  }
  const filter: StatsFilter = {
    orgId: principal.is_admin ? (query.org_id ?? null) : principal.org_id,
    since: query.since,
    until: query.until,
    projectSlug: query.project_slug,
  };
  const row = await readStats(deps.pool, filter);
  const num = (text: string | null | undefined) => Number(text ?? 0);
  const groups = row.groups ?? [];
  const of = (set: JobGroup['set']) => groups.filter((g) => g.set === set);
  const total = of('total')[0];
  const byEffort = Object.fromEntries(of('effort').map((g) => [g.key ?? 'none', g.jobs]));
  const strongest = [...RUNGS].reverse().find((rung) => rung !== 'none' && (byEffort[rung] ?? 0) > 0) ?? null;
  const usage = (g: JobGroup) => ({
    jobs: g.jobs,
    cost_usd: num(g.cost_usd),
    reasoning_tokens: num(g.reasoning_tokens),
    prompt_tokens: num(g.prompt_tokens),
    completion_tokens: num(g.completion_tokens),
  });
  const byKey = (a: JobGroup, b: JobGroup) => (a.key ?? '\uffff').localeCompare(b.key ?? '\uffff');
  const byModel = (row.by_model ?? []).map((m) => ({
    provider: m.provider,
    model: m.model,
    calls: m.calls,
    cost_usd: num(m.cost_usd),
    reasoning_tokens: num(m.reasoning_tokens),
    prompt_tokens: num(m.prompt_tokens),
    completion_tokens: num(m.completion_tokens),
    fallbacks: m.fallbacks,
  }));
  return {
    window: { since: query.since ?? null, until: query.until ?? null },
    org_id: filter.orgId,
    project_slug: query.project_slug ?? null,
    jobs: { total: total?.jobs ?? 0, by_status: Object.fromEntries(of('status').map((g) => [g.key!, g.jobs])) },
    cost_usd: num(total?.cost_usd),
    reasoning_tokens: num(total?.reasoning_tokens),
    prompt_tokens: num(total?.prompt_tokens),
    completion_tokens: num(total?.completion_tokens),
    by_tier: of('tier')
      .sort(byKey)
      .map((g) => ({ tier: g.key, ...usage(g) })),
    by_project: of('project')
      .sort(byKey)
      .map((g) => ({ project_slug: g.key, ...usage(g) })),
    by_model: byModel,
    effort: { strongest, jobs_by_rung: byEffort },
    fallbacks: byModel.reduce((sum, m) => sum + m.fallbacks, 0),
    approvals: row.approvals ?? {},
  };
}

import { Context } from '@temporalio/activity';
import type { Pool } from 'pg';
import { findJob } from '../db/jobs';
import type { KnowledgeHub } from '../kb/hub';
import { searchKnowledge } from '../kb/search';
import { levelsUpTo, type Sensitivity } from '../kb/sensitivity';
import { SHARED_SPACE_ONLY } from '../kb/space';

/** Agents read the hub up to this level: what an ordinary member token reads; never `secret`. */
export const AGENT_CLEARANCE: Sensitivity = 'internal';
const MAX_K = 10;

/**
 * The org of the job this activity runs for: a level's workflow id is `<job>/<level>/<attempt>` (a roadmap unit's
 * starts with its job's id too), and the job's row names the org. Undefined outside an activity or for no job.
 */
async function jobOrg(pool: Pool | undefined): Promise<string | undefined> {
  if (!pool) return undefined;
  let workflowId: string | undefined;
  try {
    workflowId = Context.current().info.workflowExecution?.workflowId;
  } catch {
    return undefined;
  }
  if (!workflowId) return undefined;
  const job = await findJob(pool, workflowId.split('/')[0]!);
  return job?.org_id ?? undefined;
}

/**
 * The `kb_search` tool's side: a hybrid query of the knowledge hub, rendered as text for the model. A process without
 * a hub, or a hub that cannot serve, answers in words instead of failing the level: a missing hub is not the agent's
 * fault and retrying will not fix it.
 */
export function knowledgeActivities(deps: { kb?: KnowledgeHub; pool?: Pool }) {
  return {
    async searchKnowledgeBase(input: { query: string; k?: number }): Promise<string> {
      if (!deps.kb) return 'The knowledge hub is not available in this deployment.';
      const query = input.query.trim().slice(0, 2000);
      if (!query) return 'kb_search needs {"query": string}';
      const k = Math.min(Math.max(Math.trunc(input.k ?? 5), 1), MAX_K);
      let hits;
      try {
        // An agent reads its job's org and the shared space; without a job, the shared space only.
        const org = (await jobOrg(deps.pool)) ?? SHARED_SPACE_ONLY;
        hits = await searchKnowledge(deps.kb, { query, k, levels: levelsUpTo(AGENT_CLEARANCE), org });
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'kb_unavailable' || code === 'reembed_required')
          return `The knowledge hub cannot search now: ${(err as Error).message}`;
        throw err;
      }
      if (hits.length === 0) return `No knowledge-hub results for "${query}".`;
      return hits
        .map(
          (hit, i) =>
            `${i + 1}. ${hit.title}${hit.heading && hit.heading !== hit.title ? ` — ${hit.heading}` : ''} (${hit.path}, ${hit.kh_id}, score ${hit.score})\n   ${hit.snippet}`,
        )
        .join('\n');
    },
  };
}

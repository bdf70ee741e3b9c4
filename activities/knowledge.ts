import type { KnowledgeHub } from '../kb/hub';
import { searchKnowledge } from '../kb/search';
import { levelsUpTo, type Sensitivity } from '../kb/sensitivity';

/** Agents read the hub up to this level: what an ordinary member token reads; never `secret`. */
export const AGENT_CLEARANCE: Sensitivity = 'internal';
const MAX_K = 10;

/**
 * The `kb_search` tool's side: a hybrid query of the knowledge hub, rendered as text for the model. A process without
 * a hub, or a hub that cannot serve, answers in words instead of failing the level: a missing hub is not the agent's
 * fault and retrying will not fix it.
 */
export function knowledgeActivities(deps: { kb?: KnowledgeHub }) {
  return {
    async searchKnowledgeBase(input: { query: string; k?: number }): Promise<string> {
      if (!deps.kb) return 'The knowledge hub is not available in this deployment.';
      const query = input.query.trim().slice(0, 2000);
      if (!query) return 'kb_search needs {"query": string}';
      const k = Math.min(Math.max(Math.trunc(input.k ?? 5), 1), MAX_K);
      let hits;
      try {
        hits = await searchKnowledge(deps.kb, { query, k, levels: levelsUpTo(AGENT_CLEARANCE) });
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

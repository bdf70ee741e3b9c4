import { ApplicationFailure } from '@temporalio/activity';
import type { Pool } from 'pg';
import { describeRequirements, openRoadmap } from '../capabilities/registry';
import { proposeVerticalPlan, readConfirmation, type KnowledgeSource } from '../capabilities/vertical-plan';
import { catalogEntry } from '../capabilities/catalog';
import { capabilityStatuses, finishRoadmap, getRoadmap, recordUnit, seedCapabilities } from '../db/capabilities';
import { withTransaction } from '../db/transaction';
import { answerVertical, failVertical, getVertical, recordVerticalPlan } from '../db/verticals';
import { setWorkItemState } from '../db/work-items';
import type { KnowledgeHub } from '../kb/hub';
import { searchKnowledge } from '../kb/search';
import { levelsUpTo } from '../kb/sensitivity';
import { SHARED_SPACE_ONLY } from '../kb/space';
import type { UnitSpec } from '../pure/contracts';
import { AGENT_CLEARANCE } from './knowledge';
import { seedOf } from '../capabilities/registry';
import { noSecrets, type SecretStore } from '../secrets/store';

export interface CapabilityActivityDeps {
  pool: Pool;
  kb?: KnowledgeHub;
  /** Where a `secret` unit looks for the secrets a capability needs (the store jobs read them from). */
  secrets?: SecretStore;
}

/** Activities of capability roadmaps, vertical discovery and work items (workflows call them by name). */
export function capabilityActivities(deps: CapabilityActivityDeps) {
  return {
    async loadRoadmapPlan(input: { roadmapId: string }): Promise<{ units: UnitSpec[]; requirements: string }> {
      const roadmap = await getRoadmap(deps.pool, input.roadmapId);
      if (!roadmap) {
        throw ApplicationFailure.create({ type: 'RoadmapNotFound', message: `roadmap ${input.roadmapId} has no row` });
      }
      const { rows } = await deps.pool.query<{ requirements: unknown }>(
        'SELECT requirements FROM capabilities WHERE org_id = $1 AND name = $2',
        [roadmap.org_id, roadmap.capability],
      );
      return {
        units: roadmap.units.map((u) => ({
          position: u.position,
          key: u.unit_key,
          kind: u.kind,
          title: u.title,
          artifact: u.artifact,
        })),
        requirements: describeRequirements(rows[0]?.requirements),
      };
    },

    async recordUnitAttempt(input: {
      roadmapId: string;
      position: number;
      status: 'running' | 'verified' | 'failed' | 'blocked';
      attempt: number;
      error?: string;
      evidence?: string[];
    }): Promise<void> {
      await recordUnit(deps.pool, {
        roadmapId: input.roadmapId,
        position: input.position,
        status: input.status,
        attempts: input.attempt,
        error: input.error,
        evidence: input.evidence,
      });
    },

    /** The deterministic half of a unit's verification: the artifact is a file the roadmap job wrote, non-empty. */
    async checkUnitArtifact(input: { jobId: string; path: string }): Promise<{ present: boolean; evidence?: string }> {
      const { rows } = await deps.pool.query<{ sha256: string; size_bytes: number }>(
        'SELECT sha256, size_bytes FROM job_files WHERE job_id = $1 AND path = $2',
        [input.jobId, input.path],
      );
      const file = rows[0];
      if (!file || file.size_bytes === 0) return { present: false };
      return { present: true, evidence: `${input.path} sha256:${file.sha256} (${file.size_bytes} bytes)` };
    },

    /** A `secret` unit: the secret is in the store jobs read it from. Only its presence is reported, never its value. */
    async checkCapabilitySecret(input: { name: string }): Promise<boolean> {
      return (await (deps.secrets ?? noSecrets).get(input.name)) !== undefined;
    },

    async finishCapabilityRoadmap(input: {
      roadmapId: string;
      outcome: 'acquired' | 'blocked' | 'failed' | 'cancelled';
      reason?: string;
      actionNeeded?: string;
    }): Promise<void> {
      await finishRoadmap(deps.pool, input);
    },

    async capabilityStatusesOf(input: { orgId: string; names: string[] }): Promise<Record<string, string>> {
      await seedCapabilities(
        deps.pool,
        input.orgId,
        input.names.flatMap((name) => {
          const def = catalogEntry(name);
          return def ? [seedOf(def)] : [];
        }),
      );
      return Object.fromEntries(await capabilityStatuses(deps.pool, input.orgId, input.names));
    },

    /** A work item's job opens the roadmap of a capability it lacks (or learns which roadmap already acquires it). */
    async openCapabilityRoadmap(input: {
      orgId: string;
      capability: string;
      jobId: string;
      reason: string;
      createdBy: string;
      roadmapId: string;
    }): Promise<{ state: 'opened' | 'active' | 'running' | 'unknown'; roadmapId?: string }> {
      return withTransaction(deps.pool, async (client) => {
        // Idempotent under activity retries: the id is chosen by the workflow, so a committed first try is found.
        const { rows } = await client.query('SELECT 1 FROM capability_roadmaps WHERE roadmap_id = $1', [
          input.roadmapId,
        ]);
        if (rows.length > 0) return { state: 'opened' as const, roadmapId: input.roadmapId };
        const opened = await openRoadmap(client, input);
        if (!opened) return { state: 'unknown' as const };
        return opened.state === 'active'
          ? { state: 'active' as const }
          : { state: opened.state, roadmapId: opened.roadmapId };
      });
    },

    /** Reads the knowledge hub about the vertical and records the proposed plan, awaiting a person's answer. */
    async discoverVertical(input: { verticalId: string; name: string; description?: string }) {
      const sources: KnowledgeSource[] = [];
      if (deps.kb) {
        try {
          // The vertical's org and the shared space: another org's documents never shape this org's plan.
          const vertical = await getVertical(deps.pool, input.verticalId);
          const hits = await searchKnowledge(deps.kb, {
            query: `${input.name} ${input.description ?? ''}`.trim(),
            k: 5,
            levels: levelsUpTo(AGENT_CLEARANCE),
            org: vertical?.org_id ?? SHARED_SPACE_ONLY,
          });
          for (const hit of hits)
            sources.push({ kh_id: hit.kh_id, title: hit.title, path: hit.path, snippet: hit.snippet });
        } catch (err) {
          const code = (err as { code?: string }).code;
          // A hub that cannot search now leaves the plan to the brief alone; it is not a reason to fail discovery.
          if (code !== 'kb_unavailable' && code !== 'reembed_required') throw err;
        }
      }
      const plan = proposeVerticalPlan({ name: input.name, description: input.description, sources });
      await recordVerticalPlan(deps.pool, input.verticalId, plan);
      return plan;
    },

    /** The person's answer: a confirmed plan puts its capabilities in the org's registry; a rejected one does not. */
    async answerVerticalPlan(input: { verticalId: string; orgId: string; answer: string }) {
      const reading = readConfirmation(input.answer);
      await withTransaction(deps.pool, async (client) => {
        const plan = await answerVertical(client, input.verticalId, input.answer, reading.confirmed);
        if (reading.confirmed && plan) {
          const names = (plan as { capabilities: Array<{ name: string }> }).capabilities.map((c) => c.name);
          const seeds = names.flatMap((name) => {
            const def = catalogEntry(name);
            return def ? [seedOf(def)] : [];
          });
          await seedCapabilities(client, input.orgId, seeds);
        }
      });
      return reading;
    },

    async failVerticalDiscovery(input: { verticalId: string }): Promise<void> {
      await failVertical(deps.pool, input.verticalId);
    },

    async recordWorkItemState(input: { orgId: string; slug: string; state: 'in_progress' | 'done' | 'failed' }) {
      await setWorkItemState(deps.pool, input.orgId, input.slug, input.state);
    },
  };
}

import type { FastifyBaseLogger } from 'fastify';
import { catalogEntry, type CapabilityRequirements } from '../capabilities/catalog';
import { customCapability, ensureOrgCatalog, openRoadmap, upsertCapability } from '../capabilities/registry';
import { getRoadmap } from '../db/capabilities';
import type { TokenOwner } from '../db/tokens';
import type { Admitted } from './admit';
import { Conflict, Invalid, NotFound } from '../refusals/refusal';
import type { RoadmapInput } from '../workflows/capability-definitions';
import type { JobIds } from '../workflows/definitions';
import type { JobsDeps } from './deps';
import { redactPrompt } from './redact';
import { startSystemJob } from './system-job';
import { canSee } from './visibility';
import crypto from 'node:crypto';

export interface PlannedRoadmap extends JobIds {
  roadmap_id: string;
  capability: string;
  status: 'queued';
}

/**
 * Plans a capability for the caller's org: a roadmap and its units are written and its roadmap job starts, in one
 * transaction. A catalog capability needs only its name; any other name needs `requirements` (a custom capability).
 * An active capability (409 `capability_active`) or one already being acquired (409 `roadmap_running`) stores nothing.
 */
export async function planCapability(
  deps: JobsDeps,
  principal: Admitted,
  body: { capability: string; reason?: string; requirements?: CapabilityRequirements },
  log: FastifyBaseLogger,
): Promise<PlannedRoadmap> {
  const known = catalogEntry(body.capability);
  if (!known && !body.requirements) {
    throw new Invalid(
      'unknown_capability',
      `capability ${body.capability} is not in the catalog; give its requirements to plan a custom capability`,
    );
  }
  const reason = body.reason === undefined ? undefined : redactPrompt(body.reason).text;
  const roadmapId = `rm-${crypto.randomUUID()}`;
  const ids = await startSystemJob(
    deps,
    principal,
    {
      prompt: `Acquire the ${body.capability} capability${reason ? `: ${reason}` : ''}`,
      workflowType: 'runCapabilityRoadmap',
      memo: { roadmap_id: roadmapId, capability: body.capability },
      args: (ids): [RoadmapInput] => [
        { ids, roadmapId, capability: body.capability, orgId: principal.org_id, reason, standalone: true },
      ],
      rows: async (client, ids) => {
        await ensureOrgCatalog(client, principal.org_id);
        if (body.requirements) {
          await upsertCapability(client, principal.org_id, customCapability(body.capability, body.requirements));
        }
        const opened = await openRoadmap(client, {
          orgId: principal.org_id,
          capability: body.capability,
          jobId: ids.job_id,
          reason,
          createdBy: principal.user_id || 'user',
          roadmapId,
        });
        if (!opened) throw new Invalid('unknown_capability', `capability ${body.capability} is not known`);
        if (opened.state === 'active') {
          throw new Conflict('capability_active', `capability ${body.capability} is already active`);
        }
        if (opened.state === 'running') {
          throw new Conflict(
            'roadmap_running',
            `capability ${body.capability} is being acquired by roadmap ${opened.roadmapId}`,
          );
        }
      },
    },
    log,
  );
  return { ...ids, roadmap_id: roadmapId, capability: body.capability, status: 'queued' };
}

/** A roadmap the caller may see, with its units; another org's is not found. */
export async function visibleRoadmap(deps: Pick<JobsDeps, 'pool'>, principal: TokenOwner, roadmapId: string) {
  const roadmap = await getRoadmap(deps.pool, roadmapId);
  if (!roadmap || !canSee(principal, roadmap.org_id)) throw new NotFound(`roadmap ${roadmapId}`);
  return roadmap;
}

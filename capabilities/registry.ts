import crypto from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import {
  capabilityStatuses,
  getCapability,
  insertRoadmap,
  seedCapabilities,
  upsertCapability,
  type CapabilityRow,
  type CapabilitySeed,
} from '../db/capabilities';
import { CAPABILITY_CATALOG, unitsFor, type CapabilityDefinition, type CapabilityRequirements } from './catalog';

type Db = Pool | PoolClient;

export function seedOf(def: CapabilityDefinition): CapabilitySeed {
  return { ...def, units: unitsFor(def) };
}

/** The catalog's capabilities an org has not seen yet become `available` rows of its registry. */
export async function ensureOrgCatalog(db: Db, orgId: string): Promise<void> {
  await seedCapabilities(db, orgId, CAPABILITY_CATALOG.map(seedOf));
}

/** A capability that is not in the catalog, described by whoever plans it. */
export function customCapability(name: string, requirements: CapabilityRequirements): CapabilitySeed {
  const title = name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
  const def: CapabilityDefinition = {
    name,
    title,
    description: `A capability planned by the team: ${title}.`,
    requirements,
    verification: ['every unit writes its artifact and the verifier passes it on the example request'],
  };
  return seedOf(def);
}

/** The requirements in one line, for a unit's task. */
export function describeRequirements(requirements: unknown): string {
  const r = requirements as Partial<CapabilityRequirements>;
  const parts = [
    r.model_features?.length ? `model features ${r.model_features.join(', ')}` : '',
    r.tools?.length ? `tools ${r.tools.join(', ')}` : '',
    r.secrets?.length ? `secrets ${r.secrets.join(', ')}` : '',
    r.templates?.length ? `templates ${r.templates.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'no special requirements';
}

export type OpenedRoadmap =
  | { state: 'opened'; roadmapId: string; capability: CapabilityRow }
  | { state: 'active' }
  | { state: 'running'; roadmapId: string };

/**
 * Opens a roadmap for a capability of the org inside the caller's transaction: the capability row is locked, an
 * active one needs no roadmap, one being acquired already has one (whose id is returned), otherwise a new roadmap
 * and its units are written and the capability becomes `acquiring`. Unknown names come back undefined.
 */
export async function openRoadmap(
  client: PoolClient,
  input: { orgId: string; capability: string; jobId: string; reason?: string; createdBy: string; roadmapId?: string },
): Promise<OpenedRoadmap | undefined> {
  await ensureOrgCatalog(client, input.orgId);
  await client.query('SELECT 1 FROM capabilities WHERE org_id = $1 AND name = $2 FOR UPDATE', [
    input.orgId,
    input.capability,
  ]);
  const capability = await getCapability(client, input.orgId, input.capability);
  if (!capability) return undefined;
  if (capability.status === 'active') return { state: 'active' };
  if (capability.status === 'acquiring' && capability.roadmap_id) {
    return { state: 'running', roadmapId: capability.roadmap_id };
  }
  const roadmapId = input.roadmapId ?? `rm-${crypto.randomUUID()}`;
  const units = capability.units as Array<{ key: string; kind: string; title: string; artifact: string }>;
  const opened = await insertRoadmap(client, {
    roadmapId,
    orgId: input.orgId,
    capability: input.capability,
    jobId: input.jobId,
    reason: input.reason,
    createdBy: input.createdBy,
    units,
  });
  if (!opened) throw new Error(`capability ${input.capability} has a running roadmap but is not acquiring`);
  return { state: 'opened', roadmapId, capability };
}

export { capabilityStatuses, upsertCapability };

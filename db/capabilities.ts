/** Row access for the capability registry, its roadmaps and units, and the activation ledger. */
import type { Pool, PoolClient } from 'pg';
import { rfc3339 } from './keyset';
import { withTransaction } from './transaction';

type Db = Pool | PoolClient;

export type CapabilityStatus = 'available' | 'acquiring' | 'active' | 'blocked';

export interface CapabilitySeed {
  name: string;
  title: string;
  description: string;
  requirements: unknown;
  units: unknown;
  verification: unknown;
}

export interface CapabilityRow extends CapabilitySeed {
  org_id: string;
  status: CapabilityStatus;
  roadmap_id: string | null;
  activated_at: string | null;
  updated_at: string;
}

const CAPABILITY_COLUMNS = `org_id, name, title, description, status, requirements, units, verification, roadmap_id,
  ${rfc3339('activated_at')} AS activated_at, ${rfc3339('updated_at')} AS updated_at`;

/** Writes the catalog's entries an org does not have yet (one statement; existing rows are left as they are). */
export async function seedCapabilities(db: Db, orgId: string, seeds: CapabilitySeed[]): Promise<void> {
  await db.query(
    `INSERT INTO capabilities (org_id, name, title, description, requirements, units, verification)
     SELECT $1, d->>'name', d->>'title', d->>'description', d->'requirements', d->'units', d->'verification'
       FROM jsonb_array_elements($2::jsonb) d
     ON CONFLICT (org_id, name) DO NOTHING`,
    [orgId, JSON.stringify(seeds)],
  );
}

/** The registry, by name then org; `orgId` null lists every org's (admins). */
export async function listCapabilities(
  pool: Pool,
  options: { orgId: string | null; status?: string; limit: number; after?: [string, string] },
): Promise<CapabilityRow[]> {
  const values: unknown[] = [];
  const param = (v: unknown) => `$${values.push(v)}`;
  const where: string[] = [];
  if (options.orgId !== null) where.push(`org_id = ${param(options.orgId)}`);
  if (options.status) where.push(`status = ${param(options.status)}`);
  if (options.after) {
    where.push(`(name COLLATE "C", org_id COLLATE "C") > (${param(options.after[0])}, ${param(options.after[1])})`);
  }
  const { rows } = await pool.query<CapabilityRow>(
    `SELECT ${CAPABILITY_COLUMNS} FROM capabilities
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY name COLLATE "C", org_id COLLATE "C" LIMIT ${param(options.limit)}`,
    values,
  );
  return rows;
}

export async function getCapability(db: Db, orgId: string, name: string): Promise<CapabilityRow | undefined> {
  const { rows } = await db.query<CapabilityRow>(
    `SELECT ${CAPABILITY_COLUMNS} FROM capabilities WHERE org_id = $1 AND name = $2`,
    [orgId, name],
  );
  return rows[0];
}

/** The status of each named capability in the org (names the org has no row for are absent). */
export async function capabilityStatuses(
  db: Db,
  orgId: string,
  names: string[],
): Promise<Map<string, CapabilityStatus>> {
  const { rows } = await db.query<{ name: string; status: CapabilityStatus }>(
    'SELECT name, status FROM capabilities WHERE org_id = $1 AND name = ANY($2::text[])',
    [orgId, names],
  );
  return new Map(rows.map((r) => [r.name, r.status]));
}

/** A custom capability (not in the catalog), or new requirements for one that is not active. */
export async function upsertCapability(db: Db, orgId: string, seed: CapabilitySeed): Promise<void> {
  await db.query(
    `INSERT INTO capabilities (org_id, name, title, description, requirements, units, verification)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (org_id, name) DO UPDATE
       SET requirements = EXCLUDED.requirements, units = EXCLUDED.units, verification = EXCLUDED.verification,
           updated_at = now()
     WHERE capabilities.status NOT IN ('active', 'acquiring')`,
    [
      orgId,
      seed.name,
      seed.title,
      seed.description,
      JSON.stringify(seed.requirements),
      JSON.stringify(seed.units),
      JSON.stringify(seed.verification),
    ],
  );
}

export interface UnitSeed {
  key: string;
  kind: string;
  title: string;
  artifact: string;
}

export interface NewRoadmap {
  roadmapId: string;
  orgId: string;
  capability: string;
  jobId: string;
  reason?: string;
  createdBy: string;
  units: UnitSeed[];
}

/**
 * Records a roadmap and its units and marks the capability `acquiring`, inside the caller's transaction (the one
 * that writes the roadmap's job). False when the capability is already being acquired (the partial unique index).
 */
export async function insertRoadmap(client: PoolClient, roadmap: NewRoadmap): Promise<boolean> {
  const inserted = await client.query(
    `INSERT INTO capability_roadmaps (roadmap_id, org_id, capability, job_id, reason, created_by)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (org_id, capability) WHERE status = 'running' DO NOTHING`,
    [roadmap.roadmapId, roadmap.orgId, roadmap.capability, roadmap.jobId, roadmap.reason ?? null, roadmap.createdBy],
  );
  if (inserted.rowCount !== 1) return false;
  await client.query(
    `INSERT INTO roadmap_units (roadmap_id, position, unit_key, kind, title, artifact)
     SELECT $1, u.ordinality, u.value->>'key', u.value->>'kind', u.value->>'title', u.value->>'artifact'
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY u`,
    [roadmap.roadmapId, JSON.stringify(roadmap.units)],
  );
  await client.query(
    `UPDATE capabilities SET status = 'acquiring', roadmap_id = $3, updated_at = now() WHERE org_id = $1 AND name = $2`,
    [roadmap.orgId, roadmap.capability, roadmap.roadmapId],
  );
  return true;
}

export interface RoadmapRow {
  roadmap_id: string;
  org_id: string;
  capability: string;
  job_id: string;
  reason: string | null;
  status: string;
  blocked_reason: string | null;
  action_needed: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface UnitRow {
  position: number;
  unit_key: string;
  kind: string;
  title: string;
  artifact: string;
  status: string;
  attempts: number;
  last_error: string | null;
  evidence: unknown;
}

export async function getRoadmap(db: Db, roadmapId: string): Promise<(RoadmapRow & { units: UnitRow[] }) | undefined> {
  const { rows } = await db.query<RoadmapRow>(
    `SELECT roadmap_id, org_id, capability, job_id, reason, status, blocked_reason, action_needed, created_by,
            ${rfc3339('created_at')} AS created_at, ${rfc3339('updated_at')} AS updated_at,
            ${rfc3339('finished_at')} AS finished_at
       FROM capability_roadmaps WHERE roadmap_id = $1`,
    [roadmapId],
  );
  const roadmap = rows[0];
  if (!roadmap) return undefined;
  const units = await db.query<UnitRow>(
    `SELECT position, unit_key, kind, title, artifact, status, attempts, last_error, evidence
       FROM roadmap_units WHERE roadmap_id = $1 ORDER BY position`,
    [roadmapId],
  );
  return { ...roadmap, units: units.rows };
}

/** A unit attempt's outcome (or its start): the row keeps the latest attempt's status, error and evidence. */
export async function recordUnit(
  pool: Pool,
  unit: { roadmapId: string; position: number; status: string; attempts: number; error?: string; evidence?: unknown },
): Promise<void> {
  await pool.query(
    `UPDATE roadmap_units
        SET status = $3, attempts = GREATEST(attempts, $4), last_error = $5,
            evidence = COALESCE($6::jsonb, evidence), updated_at = now()
      WHERE roadmap_id = $1 AND position = $2`,
    [
      unit.roadmapId,
      unit.position,
      unit.status,
      unit.attempts,
      unit.error ?? null,
      unit.evidence === undefined ? null : JSON.stringify(unit.evidence),
    ],
  );
}

/**
 * Ends a roadmap. `acquired` activates the capability and writes its ledger entry with every unit's evidence;
 * `blocked` marks the capability blocked with the reason; `failed`/`cancelled` return it to available. Idempotent:
 * a roadmap already finished is left as it is (an activity retried after its commit).
 */
export async function finishRoadmap(
  pool: Pool,
  input: {
    roadmapId: string;
    outcome: 'acquired' | 'blocked' | 'failed' | 'cancelled';
    reason?: string;
    actionNeeded?: string;
  },
): Promise<void> {
  await withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ org_id: string; capability: string }>(
      `UPDATE capability_roadmaps
          SET status = $2, blocked_reason = $3, action_needed = $4, updated_at = now(), finished_at = now()
        WHERE roadmap_id = $1 AND status = 'running'
        RETURNING org_id, capability`,
      [input.roadmapId, input.outcome, input.reason ?? null, input.actionNeeded ?? null],
    );
    const roadmap = rows[0];
    if (!roadmap) return;
    const status = { acquired: 'active', blocked: 'blocked', failed: 'available', cancelled: 'available' }[
      input.outcome
    ];
    await client.query(
      `UPDATE capabilities
          SET status = $3, updated_at = now(),
              activated_at = CASE WHEN $3 = 'active' THEN now() ELSE activated_at END
        WHERE org_id = $1 AND name = $2`,
      [roadmap.org_id, roadmap.capability, status],
    );
    if (input.outcome === 'acquired') {
      await client.query(
        `INSERT INTO capability_ledger (org_id, capability, action, roadmap_id, actor, reason, evidence)
         SELECT $1, $2, 'activated', $3, 'roadmap:' || $3, r.reason,
                COALESCE(jsonb_agg(jsonb_build_object('unit', u.unit_key, 'kind', u.kind, 'attempts', u.attempts,
                                                      'evidence', u.evidence) ORDER BY u.position)
                         FILTER (WHERE u.position IS NOT NULL), '[]')
           FROM capability_roadmaps r LEFT JOIN roadmap_units u USING (roadmap_id)
          WHERE r.roadmap_id = $3
          GROUP BY r.reason`,
        [roadmap.org_id, roadmap.capability, input.roadmapId],
      );
    }
  });
}

/** A person turns an active capability off: new jobs stop relying on it; the ledger says who and why. */
export async function deactivateCapability(
  pool: Pool,
  input: { orgId: string; name: string; actor: string; reason?: string },
): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const changed = await client.query(
      `UPDATE capabilities SET status = 'available', updated_at = now()
        WHERE org_id = $1 AND name = $2 AND status = 'active'`,
      [input.orgId, input.name],
    );
    if (changed.rowCount !== 1) return false;
    await client.query(
      `INSERT INTO capability_ledger (org_id, capability, action, actor, reason)
       VALUES ($1, $2, 'deactivated', $3, $4)`,
      [input.orgId, input.name, `user:${input.actor}`, input.reason ?? null],
    );
    return true;
  });
}

export interface LedgerRow {
  entry_id: string;
  org_id: string;
  capability: string;
  action: string;
  roadmap_id: string | null;
  actor: string;
  reason: string | null;
  evidence: unknown;
  created_at: string;
}

/** The ledger, newest first, paged by entry id. */
export async function listLedger(
  pool: Pool,
  options: { orgId: string | null; capability?: string; limit: number; before?: string },
): Promise<LedgerRow[]> {
  const values: unknown[] = [];
  const param = (v: unknown) => `$${values.push(v)}`;
  const where: string[] = [];
  if (options.orgId !== null) where.push(`org_id = ${param(options.orgId)}`);
  if (options.capability) where.push(`capability = ${param(options.capability)}`);
  if (options.before) where.push(`entry_id < ${param(options.before)}::bigint`);
  const { rows } = await pool.query<LedgerRow>(
    `SELECT entry_id::text, org_id, capability, action, roadmap_id, actor, reason, evidence,
            ${rfc3339('created_at')} AS created_at
       FROM capability_ledger ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY entry_id DESC LIMIT ${param(options.limit)}`,
    values,
  );
  return rows;
}

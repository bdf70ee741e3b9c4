import type { Pool, PoolClient } from 'pg';
import { byPriorityThenSeq, chooseGrants, projectKey, type QueuedJob, type WaitReason } from './fair-grant';
import { withTransaction } from './transaction';
import type { Queryable } from './users';

/*
 * Job slots (migrations 0032_job_slots.sql, 0037_project_job_limits.sql; docs/scheduling.md). Every change runs in
 * one transaction under one advisory lock and ends with a grant pass, so API and worker replicas never grant the same
 * slot twice or leave a free slot with a job waiting for it.
 */

/** The deployment's scheduling settings, as the job's input carries them (the API's JOB_SLOTS_* configuration). */
export interface SlotPolicy {
  /** Running jobs per org unless the org has its own limit (org_job_limits); null: unlimited. */
  orgSlots: number | null;
  /** Running jobs over every org; null: unlimited. */
  totalSlots: number | null;
  /** Off: plain FIFO over every org. */
  fair: boolean;
}

export interface SlotRequest {
  jobId: string;
  orgId: string;
  projectSlug?: string | null;
  priority?: number;
}

/** Where a job stands after a claim. `granted`: other jobs this call granted, to be told (signalled). */
export type SlotClaim =
  | { state: 'running'; granted: string[]; /** From enqueue to grant. */ waitedMs: number }
  | {
      state: 'queued';
      position: number;
      reason: WaitReason;
      orgLimit: number | null;
      /** The job's project's own limit; null: none (or no project). */
      projectLimit: number | null;
      granted: string[];
    }
  | { state: 'released'; granted: string[] };

async function lock(client: PoolClient): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('keel-job-slots', 0))`);
}

async function orgLimitsOf(db: Queryable, orgs: string[]): Promise<Map<string, number>> {
  if (orgs.length === 0) return new Map();
  const { rows } = await db.query<{ org_id: string; max_running: number }>(
    'SELECT org_id, max_running FROM org_job_limits WHERE org_id = ANY($1)',
    [orgs],
  );
  return new Map(rows.map((r) => [r.org_id, r.max_running]));
}

/** The own limits of the projects of these orgs, by `projectKey`. */
async function projectLimitsOf(db: Queryable, orgs: string[]): Promise<Map<string, number>> {
  if (orgs.length === 0) return new Map();
  const { rows } = await db.query<{ org_id: string; project_slug: string; max_running: number }>(
    'SELECT org_id, project_slug, max_running FROM project_job_limits WHERE org_id = ANY($1)',
    [orgs],
  );
  return new Map(rows.map((r) => [projectKey(r.org_id, r.project_slug), r.max_running]));
}

/** Grants every free slot to waiting jobs (pure/fair-grant.ts), under the caller's lock; the jobs granted. */
async function grantPass(client: PoolClient, policy: SlotPolicy): Promise<string[]> {
  const { rows: live } = await client.query<{
    job_id: string;
    org_id: string;
    project_slug: string | null;
    priority: number;
    seq: string;
    state: 'queued' | 'running';
  }>(`SELECT job_id, org_id, project_slug, priority, seq, state FROM job_slots WHERE state <> 'released'`);
  const queued: QueuedJob[] = live
    .filter((r) => r.state === 'queued')
    .map((r) => ({
      jobId: r.job_id,
      orgId: r.org_id,
      projectSlug: r.project_slug,
      priority: r.priority,
      seq: Number(r.seq),
    }));
  if (queued.length === 0) return [];
  const running = new Map<string, number>();
  const runningByProject = new Map<string, number>();
  for (const r of live) {
    if (r.state !== 'running') continue;
    running.set(r.org_id, (running.get(r.org_id) ?? 0) + 1);
    if (r.project_slug) {
      const key = projectKey(r.org_id, r.project_slug);
      runningByProject.set(key, (runningByProject.get(key) ?? 0) + 1);
    }
  }
  const orgs = [...new Set(queued.map((q) => q.orgId))];
  const [limits, projectLimits, { rows: grants }] = await Promise.all([
    orgLimitsOf(client, orgs),
    projectLimitsOf(client, orgs),
    client.query<{ org_id: string; last: Date }>(
      'SELECT org_id, max(granted_at) AS last FROM job_slots WHERE org_id = ANY($1) AND granted_at IS NOT NULL GROUP BY org_id',
      [orgs],
    ),
  ]);
  const granted = chooseGrants({
    queued,
    running,
    lastGrant: new Map(grants.map((g) => [g.org_id, g.last.getTime()])),
    orgLimit: (org) => limits.get(org) ?? policy.orgSlots ?? undefined,
    totalLimit: policy.totalSlots ?? undefined,
    fair: policy.fair,
    runningByProject,
    projectLimit: (org, slug) => projectLimits.get(projectKey(org, slug)),
  });
  // One row at a time, in grant order, so granted_at orders the grants (the next pass's "granted longest ago").
  for (const jobId of granted) {
    await client.query(
      `UPDATE job_slots SET state = 'running', granted_at = clock_timestamp() WHERE job_id = $1 AND state = 'queued'`,
      [jobId],
    );
  }
  return granted;
}

/** Where a queued job stands in its org's queue (1 is next), and why it waits. */
async function standing(
  client: PoolClient,
  jobId: string,
  policy: SlotPolicy,
): Promise<{ position: number; reason: WaitReason; orgLimit: number | null; projectLimit: number | null }> {
  const { rows } = await client.query<{
    job_id: string;
    org_id: string;
    project_slug: string | null;
    priority: number;
    seq: string;
  }>(
    `SELECT job_id, org_id, project_slug, priority, seq FROM job_slots
      WHERE state = 'queued' AND org_id = (SELECT org_id FROM job_slots WHERE job_id = $1)`,
    [jobId],
  );
  const queue = rows
    .map((r) => ({ jobId: r.job_id, orgId: r.org_id, priority: r.priority, seq: Number(r.seq) }))
    .sort(byPriorityThenSeq);
  const orgId = queue[0]?.orgId ?? '';
  const projectSlug = rows.find((r) => r.job_id === jobId)?.project_slug ?? null;
  const [limits, projectLimits, { rows: counts }] = await Promise.all([
    orgLimitsOf(client, [orgId]),
    projectLimitsOf(client, [orgId]),
    client.query<{ running: number; in_project: number }>(
      `SELECT count(*)::int AS running, count(*) FILTER (WHERE project_slug = $2)::int AS in_project
         FROM job_slots WHERE state = 'running' AND org_id = $1`,
      [orgId, projectSlug],
    ),
  ]);
  const orgLimit = limits.get(orgId) ?? policy.orgSlots;
  const projectLimit = projectSlug === null ? null : (projectLimits.get(projectKey(orgId, projectSlug)) ?? null);
  // Whichever limit holds the job, its org's first (the broader one; an admin raising only the project's would not
  // start it), then its project's; with neither, every slot of the deployment is taken.
  const reason: WaitReason =
    orgLimit !== null && (counts[0]?.running ?? 0) >= orgLimit
      ? 'org_limit'
      : projectLimit !== null && (counts[0]?.in_project ?? 0) >= projectLimit
        ? 'project_limit'
        : 'total_limit';
  return { position: queue.findIndex((q) => q.jobId === jobId) + 1, reason, orgLimit, projectLimit };
}

/**
 * A job asks for a slot: its row is added (once: a retried claim finds it), free slots are granted, and the answer is
 * where the job stands. Idempotent; a released job's claim answers `released` and grants nothing to it again.
 */
export async function claimSlot(pool: Pool, request: SlotRequest, policy: SlotPolicy): Promise<SlotClaim> {
  return withTransaction(pool, async (client) => {
    await lock(client);
    await client.query(
      `INSERT INTO job_slots (job_id, org_id, project_slug, priority, state) VALUES ($1, $2, $3, $4, 'queued')
       ON CONFLICT (job_id) DO NOTHING`,
      [request.jobId, request.orgId, request.projectSlug ?? null, request.priority ?? 0],
    );
    const granted = await grantPass(client, policy);
    const { rows } = await client.query<{ state: SlotClaim['state']; waited_ms: number | null }>(
      `SELECT state, (extract(epoch FROM granted_at - enqueued_at) * 1000)::float8 AS waited_ms
         FROM job_slots WHERE job_id = $1`,
      [request.jobId],
    );
    const others = granted.filter((id) => id !== request.jobId);
    const state = rows[0]!.state;
    if (state === 'running') return { state, granted: others, waitedMs: rows[0]!.waited_ms ?? 0 };
    if (state !== 'queued') return { state, granted: others };
    return { state, ...(await standing(client, request.jobId, policy)), granted: others };
  });
}

/**
 * A job gives its slot back (or leaves the queue): whatever it held is released and free slots are granted to the
 * next jobs, whose ids are returned so the caller tells them. Idempotent: a repeated release returns the jobs granted
 * since the first one again, so a retried activity still tells them.
 */
export async function releaseSlots(pool: Pool, jobIds: string[], policy: SlotPolicy): Promise<string[]> {
  return withTransaction(pool, async (client) => {
    await lock(client);
    const { rowCount } = await client.query(
      `UPDATE job_slots SET state = 'released', released_at = clock_timestamp()
        WHERE job_id = ANY($1) AND state <> 'released'`,
      [jobIds],
    );
    const granted = await grantPass(client, policy);
    if (rowCount === jobIds.length) return granted;
    // Some were released already: by an attempt of this release whose answer was lost (its worker was killed, or it
    // timed out after committing), whose grants were then never told. Every job granted since is told again; a job
    // already running ignores the signal, and one that has closed has its slot passed on (tell).
    const { rows } = await client.query<{ job_id: string }>(
      `SELECT job_id FROM job_slots
        WHERE state = 'running'
          AND granted_at >= (SELECT min(released_at) FROM job_slots WHERE job_id = ANY($1) AND state = 'released')
        ORDER BY granted_at`,
      [jobIds],
    );
    return [...new Set([...granted, ...rows.map((r) => r.job_id)])];
  });
}

/** The jobs holding or waiting for a slot (the sweeper checks their workflows), oldest first. */
export async function liveSlots(db: Queryable, limit = 1000): Promise<Array<{ job_id: string; state: string }>> {
  const { rows } = await db.query<{ job_id: string; state: string }>(
    `SELECT job_id, state FROM job_slots WHERE state <> 'released' ORDER BY seq LIMIT $1`,
    [limit],
  );
  return rows;
}

/** A job's queue row as GET /v1/jobs/:id shows it: its place while it waits; null for a job that never asked. */
export interface JobQueueView {
  /** The org whose queue the job is in (its `position` counts that org's queued jobs). */
  org_id: string;
  /** The job's project; null: none. */
  project_slug: string | null;
  state: 'queued' | 'running' | 'released';
  position: number | null;
  reason: WaitReason | null;
  /** While it waits on `project_limit`: its project's limit. */
  project_limit: number | null;
  enqueued_at: Date;
  granted_at: Date | null;
  released_at: Date | null;
}

export async function jobQueueView(pool: Pool, jobId: string, policy: SlotPolicy): Promise<JobQueueView | null> {
  // One snapshot: read apart, a job granted between the two reads would show `queued` at position 0.
  return withTransaction(
    pool,
    async (client) => {
      const { rows } = await client.query<{
        org_id: string;
        project_slug: string | null;
        state: JobQueueView['state'];
        enqueued_at: Date;
        granted_at: Date | null;
        released_at: Date | null;
      }>('SELECT org_id, project_slug, state, enqueued_at, granted_at, released_at FROM job_slots WHERE job_id = $1', [
        jobId,
      ]);
      const row = rows[0];
      if (!row) return null;
      if (row.state !== 'queued') return { ...row, position: null, reason: null, project_limit: null };
      const { position, reason, projectLimit } = await standing(client, jobId, policy);
      return { ...row, position, reason, project_limit: reason === 'project_limit' ? projectLimit : null };
    },
    'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
  );
}

/** Per org: running and queued jobs, the oldest wait, and the org's own limit (null: the deployment's). */
export interface OrgQueueRow {
  org_id: string;
  running: number;
  queued: number;
  oldest_enqueued_at: Date | null;
  max_running: number | null;
}

export async function orgQueues(db: Queryable): Promise<OrgQueueRow[]> {
  const { rows } = await db.query<OrgQueueRow>(
    `SELECT o.org_id,
            count(s.job_id) FILTER (WHERE s.state = 'running')::int AS running,
            count(s.job_id) FILTER (WHERE s.state = 'queued')::int AS queued,
            min(s.enqueued_at) FILTER (WHERE s.state = 'queued') AS oldest_enqueued_at,
            l.max_running
       FROM (SELECT org_id FROM job_slots WHERE state <> 'released' UNION SELECT org_id FROM org_job_limits) o
       LEFT JOIN job_slots s ON s.org_id = o.org_id AND s.state <> 'released'
       LEFT JOIN org_job_limits l ON l.org_id = o.org_id
      GROUP BY o.org_id, l.max_running
      ORDER BY o.org_id`,
  );
  return rows;
}

/** Sets (or, with null, removes) an org's own limit. */
export async function setOrgJobLimit(db: Queryable, orgId: string, maxRunning: number | null, by: string) {
  if (maxRunning === null) {
    await db.query('DELETE FROM org_job_limits WHERE org_id = $1', [orgId]);
    return;
  }
  await db.query(
    `INSERT INTO org_job_limits (org_id, max_running, updated_by) VALUES ($1, $2, $3)
     ON CONFLICT (org_id) DO UPDATE SET max_running = $2, updated_by = $3, updated_at = now()`,
    [orgId, maxRunning, by],
  );
}

/** Per project of an org: its running and queued jobs and its own limit (null: none). */
export interface ProjectQueueRow {
  org_id: string;
  project_slug: string;
  running: number;
  queued: number;
  max_running: number | null;
}

/** Every project with a live slot or an own limit, by org then slug. */
export async function projectQueues(db: Queryable): Promise<ProjectQueueRow[]> {
  const { rows } = await db.query<ProjectQueueRow>(
    `SELECT p.org_id, p.project_slug,
            count(s.job_id) FILTER (WHERE s.state = 'running')::int AS running,
            count(s.job_id) FILTER (WHERE s.state = 'queued')::int AS queued,
            l.max_running
       FROM (SELECT org_id, project_slug FROM job_slots WHERE state <> 'released' AND project_slug IS NOT NULL
             UNION SELECT org_id, project_slug FROM project_job_limits) p
       LEFT JOIN job_slots s ON s.org_id = p.org_id AND s.project_slug = p.project_slug AND s.state <> 'released'
       LEFT JOIN project_job_limits l ON l.org_id = p.org_id AND l.project_slug = p.project_slug
      GROUP BY p.org_id, p.project_slug, l.max_running
      ORDER BY p.org_id, p.project_slug`,
  );
  return rows;
}

/**
 * Sets (or, with null, removes) a project's own limit. False: the org has no such project (a limit is kept only for a
 * project that exists, and goes with it).
 */
export async function setProjectJobLimit(
  db: Queryable,
  change: { orgId: string; projectSlug: string; maxRunning: number | null; by: string },
): Promise<boolean> {
  const exists = await db.query('SELECT 1 FROM projects WHERE org_id = $1 AND slug = $2', [
    change.orgId,
    change.projectSlug,
  ]);
  if (exists.rowCount === 0) return false;
  if (change.maxRunning === null) {
    await db.query('DELETE FROM project_job_limits WHERE org_id = $1 AND project_slug = $2', [
      change.orgId,
      change.projectSlug,
    ]);
    return true;
  }
  // Deleted meanwhile, the project takes its limit with it: the insert selects nothing and the answer is "no project".
  const { rowCount } = await db.query(
    `INSERT INTO project_job_limits (org_id, project_slug, max_running, updated_by)
     SELECT org_id, slug, $3, $4 FROM projects WHERE org_id = $1 AND slug = $2
     ON CONFLICT (org_id, project_slug) DO UPDATE SET max_running = $3, updated_by = $4, updated_at = now()`,
    [change.orgId, change.projectSlug, change.maxRunning, change.by],
  );
  return rowCount! > 0;
}

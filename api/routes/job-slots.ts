import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orgQueues, projectQueues, releaseSlots, setOrgJobLimit, setProjectJobLimit } from '../../db/job-slots';
import { startSlotSweeper, tellGranted } from '../../jobs/slot-sweeper';
import type { Principal } from '../../jobs/visibility';
import { Forbidden, NotFound } from '../../refusals/refusal';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const OrgId = z.string().regex(/^\S{1,128}$/, 'an org id: 1 to 128 characters without whitespace');
const ProjectSlug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'a project slug: lowercase letters, digits and single dashes')
  .max(64);

export const SetOrgJobLimitSchema = z.strictObject({
  /** Running jobs at once for the org; null: the deployment's JOB_SLOTS_PER_ORG. */
  max_running: z.number().int().min(0).max(100_000).nullable(),
});

export const SetProjectJobLimitSchema = z.strictObject({
  /** Running jobs at once for the project, within its org's limit; null: no limit of its own. */
  max_running: z.number().int().min(0).max(100_000).nullable(),
});

export const ProjectQueueSchema = z.object({
  project_slug: z.string(),
  running: z.number().int(),
  queued: z.number().int(),
  /** The project's own limit; null: none (only its org's applies). */
  max_running: z.number().int().nullable(),
});

export const OrgQueueSchema = z.object({
  org_id: z.string(),
  running: z.number().int(),
  queued: z.number().int(),
  /** When the org's longest-waiting job was queued; null with none waiting. */
  oldest_queued_at: z.string().nullable(),
  /** The org's own limit; null: the deployment's (`default_max_running`). */
  max_running: z.number().int().nullable(),
  /** Its projects with a job holding or waiting for a slot, or a limit of their own. */
  projects: z.array(ProjectQueueSchema),
});
export const JobSlotsSchema = z.object({
  /** false: JOB_SCHEDULING is off on this API; limits can be set but no job claims a slot. */
  enabled: z.boolean(),
  fair: z.boolean(),
  /** JOB_SLOTS_PER_ORG; null: unlimited. */
  default_max_running: z.number().int().nullable(),
  /** JOB_SLOTS_TOTAL; null: unlimited. */
  total_max_running: z.number().int().nullable(),
  orgs: z.array(OrgQueueSchema),
});

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

function requireAdmin(principal: Principal): void {
  if (!principal.is_admin) throw new Forbidden('admin_only', 'job slot limits are read and set by admins only');
}

/**
 * Fair scheduling's admin view, per-org and per-project limits (docs/scheduling.md), and the sweeper that frees the
 * slots of jobs that ended without releasing them, started with the app when JOB_SCHEDULING is on and stopped when it
 * closes.
 */
export function jobSlotRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  // Read when used, not when the routes are built (the OpenAPI document is built with no dependencies).
  const policyOf = () => deps.scheduling?.policy ?? { orgSlots: null, totalSlots: null, fair: true };

  async function view() {
    const policy = policyOf();
    const [orgs, projects] = await Promise.all([orgQueues(deps.pool), projectQueues(deps.pool)]);
    const projectsOf = (org: string) =>
      projects
        .filter((p) => p.org_id === org)
        .map((p) => ({
          project_slug: p.project_slug,
          running: p.running,
          queued: p.queued,
          max_running: p.max_running,
        }));
    // An org whose only limit is a project's has no org row of its own: it is listed all the same.
    const listed = new Set(orgs.map((o) => o.org_id));
    const projectOnly = [...new Set(projects.map((p) => p.org_id))]
      .filter((org) => !listed.has(org))
      .map((org) => ({ org_id: org, running: 0, queued: 0, oldest_enqueued_at: null, max_running: null }));
    return {
      enabled: deps.scheduling !== undefined,
      fair: policy.fair,
      default_max_running: policy.orgSlots,
      total_max_running: policy.totalSlots,
      orgs: [...orgs, ...projectOnly]
        .sort((a, b) => (a.org_id < b.org_id ? -1 : a.org_id > b.org_id ? 1 : 0))
        .map((o) => ({
          org_id: o.org_id,
          running: o.running,
          queued: o.queued,
          oldest_queued_at: o.oldest_enqueued_at?.toISOString() ?? null,
          max_running: o.max_running,
          projects: projectsOf(o.org_id),
        })),
    };
  }

  /** A raised (or removed) limit frees slots now: grant them and tell the jobs, rather than wait for the next sweep. */
  async function grantFreed(): Promise<void> {
    const policy = deps.scheduling?.policy;
    if (!policy) return;
    await tellGranted({ pool: deps.pool, temporal: deps.temporal, policy }, await releaseSlots(deps.pool, [], policy));
  }

  return async (app) => {
    let stop: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      const scheduling = deps.scheduling;
      if (!scheduling) return;
      const sweep = { pool: deps.pool, temporal: deps.temporal, policy: scheduling.policy };
      stop = startSlotSweeper(sweep, scheduling.sweepMs, app.log);
    });
    app.addHook('onClose', async () => {
      await stop?.();
    });

    app.get('/v1/admin/job-slots', { schema: { response: { 200: JobSlotsSchema, ...errors } } }, async (request) => {
      requireAdmin(principalOf(request));
      return view();
    });

    app.put(
      '/v1/admin/job-slots/orgs/:org',
      {
        schema: {
          params: z.object({ org: OrgId }),
          body: SetOrgJobLimitSchema,
          response: { 200: OrgQueueSchema, ...errors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        requireAdmin(principal);
        const { org } = request.params;
        await setOrgJobLimit(deps.pool, org, request.body.max_running, principal.user_id);
        await grantFreed();
        const row = (await view()).orgs.find((o) => o.org_id === org);
        return row ?? { org_id: org, running: 0, queued: 0, oldest_queued_at: null, max_running: null, projects: [] };
      },
    );

    app.put(
      '/v1/admin/job-slots/orgs/:org/projects/:slug',
      {
        schema: {
          params: z.object({ org: OrgId, slug: ProjectSlug }),
          body: SetProjectJobLimitSchema,
          response: { 200: ProjectQueueSchema, 404: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        requireAdmin(principal);
        const { org, slug } = request.params;
        const set = await setProjectJobLimit(deps.pool, {
          orgId: org,
          projectSlug: slug,
          maxRunning: request.body.max_running,
          by: principal.user_id,
        });
        if (!set) throw new NotFound(`project ${slug} of org ${org}`);
        await grantFreed();
        const row = (await view()).orgs.find((o) => o.org_id === org)?.projects.find((p) => p.project_slug === slug);
        return row ?? { project_slug: slug, running: 0, queued: 0, max_running: null };
      },
    );
  };
}

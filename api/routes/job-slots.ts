import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orgQueues, releaseSlots, setOrgJobLimit } from '../../db/job-slots';
import { startSlotSweeper, tellGranted } from '../../jobs/slot-sweeper';
import type { Principal } from '../../jobs/visibility';
import { Forbidden } from '../../refusals/refusal';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const OrgId = z.string().regex(/^\S{1,128}$/, 'an org id: 1 to 128 characters without whitespace');

export const SetOrgJobLimitSchema = z.strictObject({
  /** Running jobs at once for the org; null: the deployment's JOB_SLOTS_PER_ORG. */
  max_running: z.number().int().min(0).max(100_000).nullable(),
});

export const OrgQueueSchema = z.object({
  org_id: z.string(),
  running: z.number().int(),
  queued: z.number().int(),
  /** When the org's longest-waiting job was queued; null with none waiting. */
  oldest_queued_at: z.string().nullable(),
  /** The org's own limit; null: the deployment's (`default_max_running`). */
  max_running: z.number().int().nullable(),
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
 * Fair scheduling's admin view and per-org limits (docs/scheduling.md), and the sweeper that frees the slots of jobs
 * that ended without releasing them, started with the app when JOB_SCHEDULING is on and stopped when it closes.
 */
export function jobSlotRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  // Read when used, not when the routes are built (the OpenAPI document is built with no dependencies).
  const policyOf = () => deps.scheduling?.policy ?? { orgSlots: null, totalSlots: null, fair: true };

  async function view() {
    const policy = policyOf();
    const orgs = await orgQueues(deps.pool);
    return {
      enabled: deps.scheduling !== undefined,
      fair: policy.fair,
      default_max_running: policy.orgSlots,
      total_max_running: policy.totalSlots,
      orgs: orgs.map((o) => ({
        org_id: o.org_id,
        running: o.running,
        queued: o.queued,
        oldest_queued_at: o.oldest_enqueued_at?.toISOString() ?? null,
        max_running: o.max_running,
      })),
    };
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
        // A raised limit frees slots now: grant them and tell the jobs, rather than wait for the next sweep.
        const policy = deps.scheduling?.policy;
        if (policy) {
          await tellGranted(
            { pool: deps.pool, temporal: deps.temporal, policy },
            await releaseSlots(deps.pool, [], policy),
          );
        }
        const row = (await view()).orgs.find((o) => o.org_id === org);
        return row ?? { org_id: org, running: 0, queued: 0, oldest_queued_at: null, max_running: null };
      },
    );
  };
}

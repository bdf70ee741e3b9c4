import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CAPABILITY_NAME, requirementsSchema } from '../../capabilities/catalog';
import { ensureOrgCatalog } from '../../capabilities/registry';
import {
  deactivateCapability,
  getCapability,
  listCapabilities,
  listLedger,
  type CapabilityRow,
} from '../../db/capabilities';
import { pageOf } from '../../db/keyset';
import { Conflict, NotFound } from '../../refusals/refusal';
import { admitRequest } from '../admit-request';
import { planCapability, visibleRoadmap } from '../../jobs/capabilities';
import { orgScope } from '../../jobs/visibility';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';
import { cursorParts, DEFAULT_LIMIT, Json, pageQuery } from './list-query';

const ORG = /^[^|]{1,200}$/;
const NAME = /^[a-z][a-z0-9-]{0,63}$/;

const PlanBody = z.strictObject({
  capability: CAPABILITY_NAME,
  reason: z.string().trim().min(1).max(2000).optional(),
  requirements: requirementsSchema.optional(),
});

const PlannedSchema = z.object({
  roadmap_id: z.string(),
  capability: z.string(),
  job_id: z.string(),
  workflow_id: z.string(),
  prompt_id: z.string(),
  status: z.literal('queued'),
});

const CapabilitySchema = z.object({
  name: z.string(),
  org_id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(['available', 'acquiring', 'active', 'blocked']),
  requirements: Json,
  verification: Json,
  units: Json,
  roadmap_id: z.string().nullable(),
  activated_at: z.string().nullable(),
  updated_at: z.string(),
});

const UnitSchema = z.object({
  position: z.number(),
  unit: z.string(),
  kind: z.string(),
  title: z.string(),
  artifact: z.string(),
  status: z.string(),
  attempts: z.number(),
  last_error: z.string().nullable(),
  evidence: Json,
});

const RoadmapSchema = z.object({
  roadmap_id: z.string(),
  capability: z.string(),
  job_id: z.string(),
  reason: z.string().nullable(),
  status: z.string(),
  blocked_reason: z.string().nullable(),
  action_needed: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
  units: z.array(UnitSchema),
});

const LedgerEntrySchema = z.object({
  entry_id: z.string(),
  org_id: z.string(),
  capability: z.string(),
  action: z.string(),
  roadmap_id: z.string().nullable(),
  actor: z.string(),
  reason: z.string().nullable(),
  evidence: Json,
  created_at: z.string(),
});

function view(row: CapabilityRow): z.infer<typeof CapabilitySchema> {
  return {
    name: row.name,
    org_id: row.org_id,
    title: row.title,
    description: row.description,
    status: row.status,
    requirements: row.requirements,
    verification: row.verification,
    units: row.units,
    roadmap_id: row.roadmap_id,
    activated_at: row.activated_at,
    updated_at: row.updated_at,
  };
}

/** The capability registry, its activation ledger and roadmaps (docs/capabilities.md). */
export function capabilityRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/capabilities/plan',
      {
        schema: {
          body: PlanBody,
          response: { 202: PlannedSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 503: ErrorSchema },
        },
      },
      async (request, reply) => {
        const planned = await admitRequest(deps, request, (admitted) =>
          planCapability(deps, admitted, request.body, request.log),
        );
        return reply.code(202).send(planned);
      },
    );

    app.get(
      '/v1/capabilities',
      {
        schema: {
          querystring: z.strictObject({
            ...pageQuery,
            status: z.enum(['available', 'acquiring', 'active', 'blocked']).optional(),
          }),
          response: {
            200: z.object({ capabilities: z.array(CapabilitySchema), next_cursor: z.string().nullable() }),
            400: ErrorSchema,
          },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const after = cursorParts(request.query.cursor, [NAME, ORG]) as [string, string] | undefined;
        await ensureOrgCatalog(deps.pool, principal.org_id);
        const limit = request.query.limit ?? DEFAULT_LIMIT;
        const rows = await listCapabilities(deps.pool, {
          orgId: orgScope(principal),
          status: request.query.status,
          limit,
          after,
        });
        const page = pageOf(rows, limit, (row) => [row.name, row.org_id]);
        return { capabilities: page.rows.map(view), next_cursor: page.next_cursor };
      },
    );

    app.get(
      '/v1/capabilities/ledger',
      {
        schema: {
          querystring: z.strictObject({ ...pageQuery, capability: CAPABILITY_NAME.optional() }),
          response: {
            200: z.object({ entries: z.array(LedgerEntrySchema), next_cursor: z.string().nullable() }),
            400: ErrorSchema,
          },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const before = cursorParts(request.query.cursor, [/^[1-9][0-9]{0,18}$/])?.[0];
        const limit = request.query.limit ?? DEFAULT_LIMIT;
        const rows = await listLedger(deps.pool, {
          orgId: orgScope(principal),
          capability: request.query.capability,
          limit,
          before,
        });
        const page = pageOf(rows, limit, (row) => [row.entry_id]);
        return { entries: page.rows, next_cursor: page.next_cursor };
      },
    );

    app.get(
      '/v1/capabilities/roadmaps/:id',
      {
        schema: {
          params: z.object({ id: z.string().min(1).max(100) }),
          response: { 200: RoadmapSchema, 404: ErrorSchema },
        },
      },
      async (request) => {
        const roadmap = await visibleRoadmap(deps, principalOf(request), request.params.id);
        return {
          ...roadmap,
          units: roadmap.units.map((u) => ({
            position: u.position,
            unit: u.unit_key,
            kind: u.kind,
            title: u.title,
            artifact: u.artifact,
            status: u.status,
            attempts: u.attempts,
            last_error: u.last_error,
            evidence: u.evidence,
          })),
        };
      },
    );

    app.post(
      '/v1/capabilities/:name/deactivate',
      {
        schema: {
          params: z.object({ name: CAPABILITY_NAME }),
          body: z.strictObject({ reason: z.string().trim().min(1).max(2000) }),
          response: { 200: CapabilitySchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const existing = await getCapability(deps.pool, principal.org_id, request.params.name);
        if (!existing) throw new NotFound(`capability ${request.params.name}`);
        const changed = await deactivateCapability(deps.pool, {
          orgId: principal.org_id,
          name: request.params.name,
          actor: principal.user_id || 'user',
          reason: request.body.reason,
        });
        if (!changed)
          throw new Conflict('capability_not_active', `capability ${request.params.name} is ${existing.status}`);
        return view((await getCapability(deps.pool, principal.org_id, request.params.name))!);
      },
    );
  };
}

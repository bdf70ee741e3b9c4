import type { FastifyBaseLogger } from 'fastify';
import { planWork, type WorkPlan } from '../capabilities/work-plan';
import { workType } from '../capabilities/work-types';
import { ensureOrgCatalog } from '../capabilities/registry';
import { capabilityStatuses } from '../db/capabilities';
import { getInitiative } from '../db/initiatives';
import { getProject } from '../db/projects';
import type { TokenOwner } from '../db/tokens';
import type { Admitted } from './admit';
import { attachWorkItemWorkflow, getWorkItem, insertWorkItem, storeReplan, type WorkItemRow } from '../db/work-items';
import { Conflict, Invalid, NotFound } from '../refusals/refusal';
import type { WorkItemInput } from '../workflows/capability-definitions';
import type { JobIds } from '../workflows/definitions';
import type { JobsDeps } from './deps';
import { redactPrompt } from './redact';
import { startSystemJob } from './system-job';
import { canSee } from './visibility';

/** The work item of the caller's org with this slug (admins name another org with `orgId`). */
export async function visibleWorkItem(
  deps: Pick<JobsDeps, 'pool'>,
  principal: TokenOwner,
  slug: string,
  orgId?: string,
): Promise<WorkItemRow> {
  const org = principal.is_admin && orgId ? orgId : principal.org_id;
  const item = await getWorkItem(deps.pool, org, slug);
  if (!item || !canSee(principal, item.org_id)) throw new NotFound(`work item ${slug}`);
  return item;
}

async function planFor(
  deps: Pick<JobsDeps, 'pool'>,
  item: { org_id: string; work_type: string; description: string | null },
  version: number,
  reason: string,
  changes: string[],
): Promise<WorkPlan> {
  const type = workType(item.work_type)!;
  await ensureOrgCatalog(deps.pool, item.org_id);
  const statuses = await capabilityStatuses(deps.pool, item.org_id, type.capabilities);
  return planWork({ type, description: item.description ?? '', capabilityStatus: statuses, version, reason, changes });
}

export async function createWorkItem(
  deps: JobsDeps,
  principal: TokenOwner,
  body: {
    slug: string;
    type: string;
    title: string;
    description?: string;
    project_slug?: string;
    initiative_id?: string;
  },
): Promise<WorkItemRow> {
  if (!workType(body.type)) throw new Invalid('unknown_work_type', `work type ${body.type} is not in the catalog`);
  if (body.project_slug) {
    // The item lives in the caller's org, so its project must be that org's (slugs are per org).
    const project = await getProject(deps.pool, body.project_slug, principal.org_id);
    if (!project) throw new NotFound(`project ${body.project_slug}`);
  }
  if (body.initiative_id) {
    const initiative = await getInitiative(deps.pool, body.initiative_id);
    if (!initiative || initiative.org_id !== principal.org_id) throw new NotFound(`initiative ${body.initiative_id}`);
  }
  const description = body.description === undefined ? undefined : redactPrompt(body.description).text;
  const plan = await planFor(
    deps,
    { org_id: principal.org_id, work_type: body.type, description: description ?? null },
    1,
    'created',
    [],
  );
  const created = await insertWorkItem(deps.pool, {
    orgId: principal.org_id,
    slug: body.slug,
    workType: body.type,
    title: redactPrompt(body.title).text,
    description,
    projectSlug: body.project_slug,
    initiativeId: body.initiative_id,
    plan,
    createdBy: principal.user_id || 'user',
  });
  if (!created) throw new Conflict('slug_taken', `work item ${body.slug} exists`);
  return (await getWorkItem(deps.pool, principal.org_id, body.slug))!;
}

/** The stored plan, with capability statuses as they are now (a capability may have been acquired since). */
export async function currentPlan(deps: Pick<JobsDeps, 'pool'>, item: WorkItemRow): Promise<WorkPlan> {
  const stored = item.plan as WorkPlan;
  return planFor(deps, item, item.plan_version, stored.reason, stored.changes);
}

/** A new plan version after a change; a concurrent replan of the same version is 409 `version_conflict`. */
export async function replanWorkItem(
  deps: JobsDeps,
  item: WorkItemRow,
  body: { reason: string; version?: number },
): Promise<WorkPlan> {
  if (body.version !== undefined && body.version !== item.plan_version) {
    throw new Conflict('version_conflict', `plan version is ${item.plan_version}, not ${body.version}`);
  }
  const reason = redactPrompt(body.reason).text;
  const stored = item.plan as WorkPlan;
  const plan = await planFor(deps, item, item.plan_version + 1, reason, [...stored.changes, reason]);
  const stored2 = await storeReplan(deps.pool, {
    orgId: item.org_id,
    slug: item.slug,
    expectedVersion: item.plan_version,
    plan,
    reason,
  });
  if (!stored2) throw new Conflict('version_conflict', `work item ${item.slug} was replanned concurrently; retry`);
  return plan;
}

/**
 * Starts the work item's job: its work type's scenario, after acquiring the capabilities it needs. The job's workflow
 * is linked to the item (and to its initiative) in the same transaction.
 */
export async function startWorkItem(
  deps: JobsDeps,
  principal: Admitted,
  item: WorkItemRow,
  body: { model_tier?: string },
  log: FastifyBaseLogger,
): Promise<JobIds> {
  if (item.state === 'in_progress') {
    throw new Conflict('work_item_running', `work item ${item.slug} has a job running in ${item.workflow_id}`);
  }
  const type = workType(item.work_type)!;
  const plan = item.plan as WorkPlan;
  const prompt = [
    `${item.title}${item.description ? `: ${item.description}` : ''}`,
    ...plan.changes.map((change) => `Change: ${change}`),
  ].join('\n');
  const createdBy = principal.user_id || 'user';
  return startSystemJob(
    deps,
    principal,
    {
      prompt,
      projectSlug: item.project_slug ?? undefined,
      workflowType: 'runWorkItem',
      memo: { work_item: item.slug },
      args: (ids): [WorkItemInput] => [
        {
          ids,
          orgId: item.org_id,
          slug: item.slug,
          workType: type.name,
          capabilities: type.capabilities,
          createdBy,
          job: {
            ids,
            prompt,
            projectSlug: item.project_slug ?? undefined,
            modelTier: body.model_tier,
            createdBy,
            scenario: type.scenario,
            budgetUsd: deps.jobBudgetUsd,
            heartbeatEveryMs: deps.levelHeartbeatMs,
          },
        },
      ],
      rows: (client, ids) => attachWorkItemWorkflow(client, item, ids.workflow_id),
    },
    log,
  );
}

/**
 * Starting a job: the one path behind `POST /v1/chat`, `POST /v1/workflows` and a prompt appended to a workflow with
 * no running job. Rows (project, workflow, prompt thread, job run) and the Temporal start commit together or not at
 * all; the job runs the workflow's edited graph when it has one.
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { IdAllocationError, type IdAllocator, type IdsSelect } from '../db/ids';
import type { NewSubmission } from '../db/jobs';
import { getProject } from '../db/projects';
import { getWorkflow, type WorkflowListRow } from '../db/workflow-list';
import { firstScenarioFor } from '../pure/build-directive';
import { loadWorkflowGraph } from '../scenarios/graph-store';
import type { TokenOwner } from '../db/tokens';
import { graphToScenario } from '../scenarios/graph';
import type { runJob } from '../workflows/job';
import type { Admitted } from './admit';
import type { JobsDeps } from './deps';
import { Invalid, NotFound, Unavailable } from '../refusals/refusal';
import { listScenarios } from '../scenarios/load';
import { recordAndStart, type JobWorkflow } from './record-and-start';
import { jobScheduling } from './scheduling';
import type { ProjectRef } from './tenant-budgets';
import { canSee } from './visibility';
import { insertJobWebhook } from '../db/webhooks';
import type { WebhookSubscription } from '../webhooks/subscription';
import type { FollowUpInput } from '../workflows/definitions';
import type { FollowUpPolicy } from '../pure/follow-up-policy';
import type { PoolClient } from 'pg';

export interface JobSubmission {
  /** Already redacted. */
  prompt: string;
  projectSlug?: string;
  /** An existing workflow to start the job in; a new workflow is created when absent. */
  workflowId?: string;
  /** Run this scenario file instead of the workflow's graph or scenario. */
  scenario?: string;
  modelTier?: string;
  /** Product-build pins from the request's metadata. */
  product?: { template?: string; design?: string; deploy?: boolean };
  /** A prompt id allocated already (by an append that fell back to a new job). */
  promptId?: string;
  /** The job's cost ceiling in USD (`budget_usd`, at most the deployment's maximum); the deployment's default if absent. */
  budgetUsd?: number;
  /** A webhook stored with the job, in the submission's transaction (docs/webhooks.md). */
  webhook?: WebhookSubscription;
  /** The job's id, chosen already (a follow-up policy names it to the job it interrupts); a new one when absent. */
  jobId?: string;
  /** The follow-up policy that starts this job, and the job it runs after (docs/follow-up-policies.md). */
  followUp?: FollowUpInput;
  /** A new workflow's own follow-up policy (`follow_up_policy` of POST /v1/workflows). */
  workflowFollowUpPolicy?: FollowUpPolicy;
  /** `metadata.priority`: with fair scheduling on, higher runs first within the org's queue (docs/scheduling.md). */
  priority?: number;
}

export interface SubmittedJob {
  job_id: string;
  workflow_id: string;
  prompt_id: string;
}

/** A workflow the caller may see, or 404 (another org's workflow does not exist for them). */
export async function visibleWorkflowRef(
  deps: JobsDeps,
  principal: TokenOwner,
  workflowId: string,
): Promise<WorkflowListRow> {
  const workflow = await getWorkflow(deps.pool, workflowId);
  if (!workflow || !canSee(principal, workflow.org_id, workflow.created_by)) {
    throw new NotFound(`workflow ${workflowId}`);
  }
  return workflow;
}

/**
 * The project a submission's job will run in, whose budget binds it (jobs/tenant-budgets.ts): the one it names (the
 * caller's org's), else its workflow's. A workflow the caller cannot see is a 404, as submitting into it would be.
 */
export async function submissionProject(
  deps: JobsDeps,
  principal: TokenOwner,
  sub: { projectSlug?: string; workflowId?: string },
): Promise<ProjectRef | undefined> {
  if (sub.projectSlug !== undefined) return { orgId: principal.org_id, slug: sub.projectSlug };
  if (sub.workflowId === undefined) return undefined;
  return workflowProject(await visibleWorkflowRef(deps, principal, sub.workflowId));
}

/** A workflow's project as a budget names it; undefined for a workflow in no project (or from before orgs). */
export function workflowProject(workflow: {
  org_id: string | null;
  project_slug: string | null;
}): ProjectRef | undefined {
  return workflow.org_id !== null && workflow.project_slug !== null
    ? { orgId: workflow.org_id, slug: workflow.project_slug }
    : undefined;
}

/**
 * Refuses (400 `budget_above_maximum`) a job ceiling above the deployment's maximum (JOB_BUDGET_MAX_USD); without a
 * maximum configured, any positive ceiling is taken.
 */
export function checkJobBudget(deps: Pick<JobsDeps, 'jobBudgetMaxUsd'>, budgetUsd: number | undefined): void {
  const max = deps.jobBudgetMaxUsd;
  if (budgetUsd === undefined || max === undefined || budgetUsd <= max) return;
  throw new Invalid(
    'budget_above_maximum',
    `budget_usd: ${budgetUsd} is above this deployment's maximum job budget of ${max} USD`,
  );
}

export async function allocate<T>(next: () => Promise<T>): Promise<T> {
  try {
    return await next();
  } catch (err) {
    if (err instanceof IdAllocationError) throw new Unavailable('id_allocation_failed', err.message);
    throw err;
  }
}

/**
 * Refuses (400) a scenario that is not a shipped scenario file. Checked at submission so a typo is the caller's error
 * now, not a failed job later.
 */
export async function checkScenarioName(scenario: string | undefined): Promise<void> {
  if (scenario === undefined) return;
  const available = await listScenarios();
  if (!available.includes(scenario)) {
    throw new Invalid('unknown_scenario', `scenario: no scenario "${scenario}" (available: ${available.join(', ')})`);
  }
}

/**
 * Refuses (400) a project the caller cannot see: one that does not exist, and one of another org (answered the same, so
 * the answer does not tell whether another org uses the slug). Projects are created by `POST /v1/projects` only.
 */
export async function checkProjectSlug(deps: Pick<JobsDeps, 'pool'>, principal: TokenOwner, slug: string | undefined) {
  if (slug === undefined) return;
  // Slugs are per org: the caller's own org's project of that name, or none.
  const project = await getProject(deps.pool, slug, principal.org_id);
  if (!project) {
    throw new Invalid('unknown_project', `project_slug: no project "${slug}"; create it with POST /v1/projects`);
  }
}

export async function submitJob(
  deps: JobsDeps,
  principal: Admitted,
  sub: JobSubmission,
  log: FastifyBaseLogger,
): Promise<SubmittedJob> {
  // Slugs are per org: a named project is the caller's org's, created for it when it has none (db/jobs.ts).
  let projectSlug = sub.projectSlug;
  await checkProjectSlug(deps, principal, projectSlug);
  await checkScenarioName(sub.scenario);
  const existing = sub.workflowId ? await visibleWorkflowRef(deps, principal, sub.workflowId) : undefined;
  projectSlug = projectSlug ?? existing?.project_slug ?? undefined;
  // An explicitly named scenario wins; otherwise the workflow's edited graph, else its scenario file.
  const stored = existing && !sub.scenario ? await loadWorkflowGraph(deps.pool, existing.workflow_id) : undefined;
  const graph = stored ? graphToScenario(stored.graph, existing!.workflow_id) : undefined;
  const scenario = sub.scenario ?? existing?.scenario;

  const jobId = sub.jobId ?? `job-${crypto.randomUUID()}`;
  const createdBy = principal.user_id || 'user';
  const followUp = sub.followUp;
  const submission = (workflowId: string, promptId: string): NewSubmission => ({
    jobId,
    workflowId,
    newWorkflow: !existing,
    promptId,
    prompt: sub.prompt,
    projectSlug,
    // A new workflow records the scenario its first job runs (`#build` runs `product`), so its page names it.
    scenario: existing ? scenario : firstScenarioFor(sub.prompt, scenario),
    modelTier: sub.modelTier,
    createdBy,
    orgId: principal.org_id,
    taskQueue: deps.taskQueue,
  });
  const workflow = (stored: NewSubmission): JobWorkflow => ({
    type: 'runJob',
    args: [
      {
        ids: { job_id: jobId, workflow_id: stored.workflowId, prompt_id: stored.promptId },
        prompt: sub.prompt,
        projectSlug,
        modelTier: sub.modelTier,
        createdBy,
        scenario,
        graph,
        budgetUsd: sub.budgetUsd ?? deps.jobBudgetUsd,
        heartbeatEveryMs: deps.levelHeartbeatMs,
        ...(sub.product ? { product: sub.product } : {}),
        ...(sub.followUp ? { followUp: sub.followUp } : {}),
        ...(deps.scheduling ? { scheduling: jobScheduling(deps.scheduling, principal.org_id, sub.priority) } : {}),
      },
    ] satisfies Parameters<typeof runJob>,
  });
  const rows = async (client: PoolClient, stored: NewSubmission) => {
    if (sub.webhook) await insertJobWebhook(client, jobId, sub.webhook);
    if (sub.workflowFollowUpPolicy && !existing) {
      await client.query('UPDATE workflows SET follow_up_policy = $2 WHERE workflow_id = $1', [
        stored.workflowId,
        sub.workflowFollowUpPolicy,
      ]);
    }
    if (followUp) {
      await client.query('UPDATE job_runs SET follow_up_policy = $2, follows_job_id = $3 WHERE job_id = $1', [
        jobId,
        followUp.policy,
        followUp.after?.jobId ?? null,
      ]);
    }
  };
  // The common case, a new workflow and its first prompt, takes both ids in the transaction's BEGIN round trip where
  // the ids come from the database; otherwise they are allocated first.
  const idsSelect = !existing && !sub.promptId ? await allocate(() => selectNewIds(deps.ids)) : undefined;
  const recorded = await recordAndStart(
    deps,
    idsSelect
      ? { ids: idsSelect, build: ([workflowId, promptId]) => submission(workflowId, promptId) }
      : submission(
          ...(await allocate(() =>
            existing || sub.promptId
              ? Promise.all([
                  existing?.workflow_id ?? deps.ids.nextWorkflowId(),
                  sub.promptId ?? deps.ids.nextPromptId(),
                ])
              : deps.ids.nextWorkflowAndPromptIds(),
          )),
        ),
    workflow,
    log,
    sub.webhook || followUp || sub.workflowFollowUpPolicy ? rows : undefined,
  );
  return { job_id: jobId, workflow_id: recorded.workflowId, prompt_id: recorded.promptId };
}

/** The allocator's SELECT for a new workflow's and its first prompt's ids, if it has one (db/ids.ts). */
function selectNewIds(ids: IdAllocator): Promise<IdsSelect | undefined> {
  return ids.workflowAndPromptIdsSelect ? ids.workflowAndPromptIdsSelect() : Promise.resolve(undefined);
}

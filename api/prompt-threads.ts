/**
 * Where a workflow's prompt threads are kept and what a new prompt sets off. With a database, a prompt is delivered to
 * the workflow's running job or starts a job; without one (the development fallback) the queue store keeps the
 * threads and no job runs, so `job_id` is null and `delivered` is `not_run`. The routes are the same for both
 * (api/routes/workflow-prompts.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { IdAllocator } from '../db/ids';
import { listPromptThreads } from '../db/jobs';
import type { TokenOwner } from '../db/tokens';
import type { WorkflowListRow } from '../db/workflow-list';
import { appendPrompt } from '../jobs/append-prompt';
import type { JobsDeps } from '../jobs/deps';
import { allocate, checkScenarioName, submitJob } from '../jobs/submit';
import { firstScenarioFor } from '../pure/build-directive';
import type { Admitted } from '../jobs/admit';
import type { QueueStore } from '../queue/queue-store';
import type { queueWorkflows } from './workflow-directory';
import type { FollowUpPolicy } from '../pure/follow-up-policy';

/** How a prompt reached a job: delivered to the running one, a job started for it, or (no database) none ran. */
export type Delivery = 'new_job' | 'running_job' | 'not_run';

export interface PromptThread {
  prompt_id: string;
  workflow_id: string;
  prompt: string;
  created_by: string;
  /** RFC 3339. */
  created_at: string;
  job_id: string | null;
  delivered: Delivery;
}

export interface AcceptedThreadPrompt {
  workflow_id: string;
  prompt_id: string;
  job_id: string | null;
  delivered: Delivery;
  /** The follow-up policy that decided (docs/follow-up-policies.md); null without a database, where none runs. */
  policy: FollowUpPolicy | null;
  /** The job the prompt's job waits for (enqueue) or interrupts (interrupt); else null. */
  after_job_id: string | null;
}

/** A new workflow's first prompt (already redacted) and its settings. */
export interface NewWorkflow {
  prompt: string;
  projectSlug?: string;
  scenario?: string;
  modelTier?: string;
  /** The workflow's own follow-up policy; none (null in the row) when absent. */
  followUpPolicy?: FollowUpPolicy;
}

export interface PromptThreads {
  /** Creates a workflow with its first prompt; with a database, the job that runs it too (admitted first). */
  create(
    principal: Admitted,
    input: NewWorkflow,
    log: FastifyBaseLogger,
  ): Promise<{ workflow_id: string; prompt_id: string; job_id: string | null }>;
  /** The workflow's prompt threads, oldest first. */
  list(workflow: WorkflowListRow): Promise<PromptThread[]>;
  /** Adds a prompt (already redacted) to a workflow the caller may see. */
  append(
    principal: Admitted,
    workflow: WorkflowListRow,
    input: { prompt: string; modelTier?: string; followUp?: FollowUpPolicy },
    log: FastifyBaseLogger,
  ): Promise<AcceptedThreadPrompt>;
}

/** Prompt threads in PostgreSQL, each prompt delivered to the running job or starting one. */
export function databaseThreads(deps: JobsDeps): PromptThreads {
  return {
    async create(principal, input, log) {
      const { followUpPolicy, ...rest } = input;
      const submitted = await submitJob(deps, principal, { ...rest, workflowFollowUpPolicy: followUpPolicy }, log);
      return { workflow_id: submitted.workflow_id, prompt_id: submitted.prompt_id, job_id: submitted.job_id };
    },
    async list(workflow) {
      const prompts = await listPromptThreads(deps.pool, workflow.workflow_id);
      return prompts.map((p) => ({ ...p, created_at: p.created_at.toISOString() }));
    },
    append(principal, workflow, input, log) {
      return appendPrompt(deps, principal, { workflowId: workflow.workflow_id, ...input }, log);
    },
  };
}

const PROMPTS = 'prompts';

/** A prompt thread as the queue store keeps it; no job runs without a database, so none is linked. */
const promptRecord = z.object({
  prompt_id: z.string(),
  workflow_id: z.string(),
  prompt: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  job_id: z.null(),
  delivered: z.literal('not_run'),
});
type PromptRecord = z.infer<typeof promptRecord>;

/** Now as RFC 3339 with microseconds, the form the list orders by (and the database writes). */
const nowMicros = () => new Date().toISOString().replace('Z', '000Z');

/** Prompt threads in the queue store, beside its workflows; nothing runs them. */
export function queueThreads(deps: {
  queue: QueueStore;
  ids: IdAllocator;
  workflows: ReturnType<typeof queueWorkflows>;
}): PromptThreads {
  const putPrompt = (prompt: PromptRecord) => deps.queue.putRecord(PROMPTS, prompt.prompt_id, JSON.stringify(prompt));
  const record = (workflowId: string, promptId: string, principal: TokenOwner, prompt: string, at: string) =>
    putPrompt({
      prompt_id: promptId,
      workflow_id: workflowId,
      prompt,
      created_by: principal.user_id || 'user',
      created_at: at,
      job_id: null,
      delivered: 'not_run',
    });
  return {
    async create(principal, input) {
      // No projects are kept without a database, so a slug is only a label here; a scenario is still checked.
      await checkScenarioName(input.scenario);
      const [workflowId, promptId] = await allocate(() =>
        Promise.all([deps.ids.nextWorkflowId(), deps.ids.nextPromptId()]),
      );
      const at = nowMicros();
      await record(workflowId, promptId, principal, input.prompt, at);
      await deps.workflows.put({
        workflow_id: workflowId,
        project_slug: input.projectSlug ?? null,
        created_by: principal.user_id || 'user',
        org_id: principal.org_id,
        hidden: false,
        scenario: firstScenarioFor(input.prompt, input.scenario),
        updated_at: at,
        latest_job_id: null,
        status: null,
        title: null,
        first_prompt: input.prompt.slice(0, 1000),
        created_at: at,
        follow_up_policy: input.followUpPolicy ?? null,
      });
      return { workflow_id: workflowId, prompt_id: promptId, job_id: null };
    },
    async list(workflow) {
      return (await deps.queue.listRecords(PROMPTS))
        .map((stored) => promptRecord.parse(JSON.parse(stored)))
        .filter((p) => p.workflow_id === workflow.workflow_id)
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.prompt_id.localeCompare(b.prompt_id));
    },
    async append(principal, workflow, input) {
      const promptId = await allocate(() => deps.ids.nextPromptId());
      const at = nowMicros();
      await record(workflow.workflow_id, promptId, principal, input.prompt, at);
      await deps.workflows.put({ ...workflow, updated_at: at });
      return {
        workflow_id: workflow.workflow_id,
        prompt_id: promptId,
        job_id: null,
        delivered: 'not_run',
        policy: null,
        after_job_id: null,
      };
    },
  };
}

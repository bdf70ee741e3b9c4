// The CLI's calls to the ingest API: one small function per endpoint over the typed client (./api-client).
import path from 'node:path';
import { z } from 'zod';
import { devTokenPath, readDevToken, readStackState, stackStatePath } from '../stack/state-file';
import type { CliEnv } from './config';
import { dataOf } from '../clients/client';
import type { paths } from '../clients/schema';
import { reach, type ApiTarget } from './api-request';

export { ApiUnreachable, type ApiTarget } from './api-request';

const DEFAULT_API_URL = 'http://127.0.0.1:3000';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** KEEL_API_URL, else the running `npm start`'s API (its state file in DATA_DIR), else the default address. */
export function resolveApi(env: CliEnv): ApiTarget {
  const stack = readStackState(env.DATA_DIR);
  const stateFile = stackStatePath(path.resolve(env.DATA_DIR));
  const [url, source] = env.KEEL_API_URL
    ? [env.KEEL_API_URL, 'KEEL_API_URL']
    : stack
      ? [stack.api_url, `the running stack's state file ${stateFile}`]
      : [DEFAULT_API_URL, `the default: KEEL_API_URL is unset and no running Keel is recorded in ${stateFile}`];
  const token = env.KEEL_TOKEN ?? readDevToken(env.DATA_DIR);
  if (!token) {
    // Name the file looked for: a stack started with another DATA_DIR is running, just not where the CLI looks.
    throw new UsageError(
      `no API token: set KEEL_TOKEN, or start Keel with \`npm start\` for a dev token (looked for it in ${devTokenPath(path.resolve(env.DATA_DIR))}; a stack started with another DATA_DIR needs the same DATA_DIR here)`,
    );
  }
  return { baseUrl: url.replace(/\/$/, ''), token, source, stack };
}

const id = (value: string) => ({ params: { path: { id: value } } });

// Each call goes through the typed client; what the CLI reads of an answer is parsed again at this boundary.
const Submitted = z.object({ job_id: z.string(), workflow_id: z.string(), prompt_id: z.string() });
export type SubmitBody = paths['/v1/chat']['post']['requestBody']['content']['application/json'];
export function submitJob(target: ApiTarget, body: SubmitBody) {
  return reach(target, async (client) => Submitted.parse(dataOf(await client.POST('/v1/chat', { body }))));
}

const PendingInput = z.object({
  questions: z.array(z.object({ call_id: z.string(), role: z.string(), question: z.string() })).nullable(),
  approvals: z.array(z.object({ approval_id: z.string(), role: z.string(), action: z.string(), reason: z.string() })),
});
export type PendingInput = z.infer<typeof PendingInput>;
export const JobView = z.looseObject({
  job_id: z.string(),
  workflow_id: z.string(),
  status: z.string(),
  // Absent from an API older than the field.
  pending: PendingInput.nullable().optional(),
  // A job's place under fair scheduling (docs/scheduling.md); absent from an API older than it.
  queue: z
    .looseObject({ state: z.string(), position: z.number().nullable(), reason: z.string().nullable() })
    .nullable()
    .optional(),
});
export function getJob(target: ApiTarget, jobId: string) {
  return reach(target, async (client) => JobView.parse(dataOf(await client.GET('/v1/jobs/{id}', id(jobId)))));
}

export function cancelJob(target: ApiTarget, jobId: string) {
  return reach(target, async (client) => dataOf(await client.POST('/v1/jobs/{id}/cancel', id(jobId))));
}

export function resumeJob(target: ApiTarget, jobId: string, callId: string, answer: string) {
  return reach(target, async (client) =>
    dataOf(await client.POST('/v1/jobs/{id}/resume', { ...id(jobId), body: { call_id: callId, answer } })),
  );
}

export const ApprovalView = z.looseObject({
  approval_id: z.string(),
  job_id: z.string(),
  action: z.string(),
  status: z.string(),
});
export function decideApproval(
  target: ApiTarget,
  approvalId: string,
  decision: 'approve' | 'reject',
  comment?: string,
) {
  return reach(target, async (client) =>
    ApprovalView.parse(
      dataOf(
        await client.POST('/v1/approvals/{id}/decide', {
          ...id(approvalId),
          body: { decision, ...(comment ? { comment } : {}) },
        }),
      ),
    ),
  );
}

export const WorkflowRow = z.looseObject({
  workflow_id: z.string(),
  project_slug: z.string().nullable(),
  updated_at: z.string(),
  status: z.string(),
  latest_job_id: z.string().nullable(),
  scenario: z.string(),
});
export type WorkflowRow = z.infer<typeof WorkflowRow>;
const WorkflowPage = z.object({ workflows: z.array(WorkflowRow), next_cursor: z.string().nullable() });
export function listWorkflows(target: ApiTarget, page: { limit: number; cursor?: string }) {
  return reach(target, async (client) =>
    WorkflowPage.parse(
      dataOf(
        await client.GET('/v1/workflows', {
          params: { query: { limit: String(page.limit), ...(page.cursor ? { cursor: page.cursor } : {}) } },
        }),
      ),
    ),
  );
}

export type ForkBody = paths['/v1/jobs/{id}/fork']['post']['requestBody']['content']['application/json'];
const Forked = z.looseObject({
  job_id: z.string(),
  source_job_id: z.string(),
  from_level_run_id: z.string().nullable(),
  carried_level_ids: z.array(z.string()),
});
export function forkJob(target: ApiTarget, jobId: string, body: ForkBody) {
  return reach(target, async (client) =>
    Forked.parse(dataOf(await client.POST('/v1/jobs/{id}/fork', { ...id(jobId), body }))),
  );
}

export type Comparison = paths['/v1/jobs/{a}/compare/{b}']['get']['responses']['200']['content']['application/json'];
export function compareJobs(target: ApiTarget, a: string, b: string): Promise<Comparison> {
  return reach(target, async (client) =>
    dataOf(await client.GET('/v1/jobs/{a}/compare/{b}', { params: { path: { a, b } } })),
  );
}

export type FollowUpPolicyName = NonNullable<
  paths['/v1/workflows/{id}/prompts']['post']['requestBody']['content']['application/json']['follow_up']
>;
export function appendWorkflowPrompt(
  target: ApiTarget,
  workflowId: string,
  body: { prompt: string; follow_up?: FollowUpPolicyName },
) {
  return reach(target, async (client) =>
    dataOf(await client.POST('/v1/workflows/{id}/prompts', { ...id(workflowId), body })),
  );
}
export function setWorkflowFollowUpPolicy(target: ApiTarget, workflowId: string, policy: FollowUpPolicyName | null) {
  return reach(target, async (client) =>
    dataOf(await client.PATCH('/v1/workflows/{id}', { ...id(workflowId), body: { follow_up_policy: policy } })),
  );
}

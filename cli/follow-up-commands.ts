// `keel prompt` and `keel follow-up` (docs/follow-up-policies.md).
import { parseArgs } from 'node:util';
import { FOLLOW_UP_POLICIES } from '../pure/follow-up-policy';
import {
  appendWorkflowPrompt,
  setWorkflowFollowUpPolicy,
  UsageError,
  type ApiTarget,
  type FollowUpPolicyName,
} from './api';

function parsePolicy(value: string, flag: string): FollowUpPolicyName {
  const known = FOLLOW_UP_POLICIES.find((p) => p === value);
  if (!known) throw new UsageError(`${flag} is one of ${FOLLOW_UP_POLICIES.join(', ')}`);
  return known;
}

/**
 * `keel prompt <wf-id> "<prompt>" [--follow-up amend|enqueue|interrupt|reject] [--json]`: a prompt for the workflow,
 * decided by its follow-up policy (or the one given for this prompt). Prints the job that took it and how.
 */
export async function runPrompt(target: ApiTarget, args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'follow-up': { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [workflowId, ...words] = positionals;
  const prompt = words.join(' ').trim();
  if (!workflowId || !prompt) throw new UsageError('keel prompt needs a workflow id and a prompt');
  const followUp = values['follow-up'];
  const accepted = await appendWorkflowPrompt(target, workflowId, {
    prompt,
    ...(followUp !== undefined ? { follow_up: parsePolicy(followUp, '--follow-up') } : {}),
  });
  if (values.json) {
    console.log(JSON.stringify(accepted, null, 2));
    return 0;
  }
  const how =
    accepted.delivered === 'running_job'
      ? 'joined the running job'
      : accepted.after_job_id
        ? `started a job that runs after ${accepted.after_job_id}`
        : accepted.delivered === 'new_job'
          ? 'started a job'
          : 'stored (no job runs without a database)';
  console.error(`prompt ${accepted.prompt_id} ${how} (policy ${accepted.policy ?? 'none'})`);
  if (accepted.job_id) console.log(accepted.job_id);
  return 0;
}

/**
 * `keel follow-up <wf-id> amend|enqueue|interrupt|reject|none`: sets the workflow's follow-up policy (`none` clears
 * it: the API then amends, team chat replies that it is still working).
 */
export async function runFollowUp(target: ApiTarget, args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true });
  const [workflowId, policy, ...extra] = positionals;
  if (!workflowId || !policy || extra.length > 0) {
    throw new UsageError(`keel follow-up needs a workflow id and one of ${FOLLOW_UP_POLICIES.join(', ')}, none`);
  }
  const set = policy === 'none' ? null : parsePolicy(policy, 'the policy');
  const workflow = await setWorkflowFollowUpPolicy(target, workflowId, set);
  console.log(`${workflow.workflow_id}\tfollow-up policy: ${workflow.follow_up_policy ?? 'none'}`);
  return 0;
}

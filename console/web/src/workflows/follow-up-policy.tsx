import { useState, type FormEvent } from 'react';
import { call, seg } from '../api';
import { ErrorNote } from '../problem';
import { FOLLOW_UP_POLICIES, Workflow, type FollowUpPolicy } from '../schemas';
import { useAction } from '../use-action';

/** What each policy does, as the setting offers it (docs/follow-up-policies.md). */
const EXPLAINED: Record<FollowUpPolicy | 'none', string> = {
  none: 'Not set: a prompt joins the running job; team chat replies that it is still working',
  amend: 'Amend: the prompt joins the running job',
  enqueue: 'Enqueue: the prompt runs next, after the running job',
  interrupt: 'Interrupt: stop the running job at its next step and start over on its files',
  reject: 'Reject: refuse the prompt while a job runs',
};

/** Saves the workflow's follow-up policy (null clears it) and answers the workflow as the API now shows it. */
export function saveFollowUpPolicy(workflowId: string, policy: FollowUpPolicy | null): Promise<Workflow> {
  return call(`/api/v1/workflows/${seg(workflowId)}`, Workflow, {
    method: 'PATCH',
    body: { follow_up_policy: policy },
  });
}

/** The workflow setting "what a prompt does while a job runs", in the workflow's settings dialog. */
export function FollowUpPolicyForm({
  workflow,
  onSaved,
}: {
  workflow: Pick<Workflow, 'workflow_id' | 'follow_up_policy'>;
  onSaved: (workflow: Workflow) => void;
}) {
  const [policy, setPolicy] = useState<FollowUpPolicy | 'none'>(workflow.follow_up_policy ?? 'none');
  const { busy, error, run } = useAction();
  const field = `follow-up-${workflow.workflow_id}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const saved = await run(() => saveFollowUpPolicy(workflow.workflow_id, policy === 'none' ? null : policy));
    if (saved) onSaved(saved);
  }

  return (
    <form className="stack" onSubmit={(e) => void submit(e)}>
      <label htmlFor={field}>When a prompt arrives while a job runs</label>
      <select id={field} value={policy} onChange={(e) => setPolicy(e.target.value as FollowUpPolicy | 'none')}>
        {(['none', ...FOLLOW_UP_POLICIES] as const).map((p) => (
          <option key={p} value={p}>
            {EXPLAINED[p]}
          </option>
        ))}
      </select>
      <ErrorNote error={error} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          Save follow-up policy
        </button>
      </div>
    </form>
  );
}

/**
 * Command intents without a job: the team lead's non-LLM routing (workflows/intents.ts, the same code a job runs)
 * reachable from the API. Commands are answered in code; a rule or fact is kept for its workflow; anything else needs
 * the agent hierarchy, i.e. a job.
 */
import { insertWorkflowNote, type WorkflowNoteRow } from '../db/workflow-notes';
import type { TokenOwner } from '../db/tokens';
import { Invalid } from '../refusals/refusal';
import { answerCommand, classifyIntent, COMMANDS } from '../workflows/intents';
import type { JobsDeps } from './deps';
import { redactPrompt } from './redact';
import { visibleWorkflowRef } from './submit';

export interface IntentInfo {
  name: string;
  kind: 'command' | 'rule' | 'fact' | 'llm';
  description: string;
  examples: string[];
  needs_job: boolean;
}

/** Every intent, by name: the commands, the two kept notes, and the catch-all that needs a job. */
export function intentCatalog(): IntentInfo[] {
  const commands: IntentInfo[] = Object.entries(COMMANDS).map(([name, description]) => ({
    name: `/${name}`,
    kind: 'command',
    description,
    examples: name === 'echo' ? ['/echo hello team'] : [`/${name}`],
    needs_job: false,
  }));
  return [
    ...commands,
    {
      name: 'fact:',
      kind: 'fact',
      description: 'keep a fact for the workflow',
      examples: ['fact: the staging database is read-only on Fridays'],
      needs_job: false,
    },
    {
      name: 'llm',
      kind: 'llm',
      description: 'anything else: work for the agent hierarchy, which runs as a job',
      examples: ['Write hello.md that greets the reader'],
      needs_job: true,
    },
    {
      name: 'rule:',
      kind: 'rule',
      description: 'keep a team rule for the workflow',
      examples: ['rule: every change needs a test'],
      needs_job: false,
    },
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) as IntentInfo[];
}

export type IntentOutcome =
  | { intent: 'command'; executed: true; name: string; answer: string }
  | { intent: 'rule' | 'fact'; executed: true; answer: string; note: WorkflowNoteRow }
  | { intent: 'llm'; executed: false; needs_job: true; answer: string };

export async function executeIntent(
  deps: JobsDeps,
  principal: TokenOwner,
  body: { text: string; workflow_id?: string },
): Promise<IntentOutcome> {
  const text = redactPrompt(body.text).text;
  const intent = classifyIntent(text);
  if (intent.kind === 'command') {
    return { intent: 'command', executed: true, name: intent.name, answer: answerCommand(intent.name, intent.args) };
  }
  if (intent.kind === 'llm') {
    return {
      intent: 'llm',
      executed: false,
      needs_job: true,
      answer: 'This needs the agent team: submit it with POST /v1/chat or POST /v1/workflows/:id/prompts.',
    };
  }
  if (!body.workflow_id) {
    throw new Invalid('workflow_required', `a ${intent.kind} is kept per workflow: give workflow_id`);
  }
  const workflow = await visibleWorkflowRef(deps, principal, body.workflow_id);
  const note = await insertWorkflowNote(deps.pool, {
    workflowId: workflow.workflow_id,
    kind: intent.kind,
    text: intent.text,
    createdBy: principal.user_id || 'user',
  });
  return { intent: intent.kind, executed: true, answer: `Kept the ${intent.kind} for ${workflow.workflow_id}.`, note };
}

import type { JobEvent } from './events';

export interface AskedQuestion {
  kind: 'question';
  callId: string;
  role: string;
  question: string;
  sequence: number;
  /** A `tool_result` with its call id came: a level's question was answered (a product step's says so elsewhere). */
  resulted: boolean;
}

export interface AskedApproval {
  kind: 'approval';
  approvalId: string;
  callId: string | null;
  role: string;
  action: string;
  reason: string;
  sequence: number;
  resulted: boolean;
}

export interface AssignedTask {
  kind: 'task';
  taskId: string;
  role: string;
  title: string;
  detail: string;
  assignee: string;
  dueAt: string | null;
  sequence: number;
}

export type PersonAsk = AskedQuestion | AskedApproval | AssignedTask;

export interface PeopleAsks {
  /** In the order the job asked. */
  asks: PersonAsk[];
  /** `final` or `error` came: nothing can be answered any more. */
  ended: boolean;
}

/**
 * Every way the job asked a person, from its events alone: questions (`ask_user`), approvals (`approval_requested`)
 * and human tasks (`human_task_assigned`). Whether each is settled and by whom is the API's to say (the questions,
 * approvals and human-tasks lists); the events only tell what was asked and what a level's `tool_result` closed.
 */
export function peopleAsks(events: readonly JobEvent[]): PeopleAsks {
  const asks: PersonAsk[] = [];
  const results = new Set<string>();
  let ended = false;
  for (const event of events) {
    if (!event.known) continue;
    switch (event.kind) {
      case 'ask_user':
        asks.push({
          kind: 'question',
          callId: event.payload.call_id,
          role: event.agent_role,
          question: event.payload.question,
          sequence: event.sequence,
          resulted: false,
        });
        break;
      case 'approval_requested':
        asks.push({
          kind: 'approval',
          approvalId: event.payload.approval_id,
          callId: event.payload.call_id,
          role: event.agent_role,
          action: event.payload.action,
          reason: event.payload.reason,
          sequence: event.sequence,
          resulted: false,
        });
        break;
      case 'human_task_assigned':
        asks.push({
          kind: 'task',
          taskId: event.payload.task_id,
          role: event.agent_role,
          title: event.payload.title,
          detail: event.payload.detail,
          assignee: event.payload.assignee,
          dueAt: event.payload.due_at,
          sequence: event.sequence,
        });
        break;
      case 'tool_result':
        results.add(event.payload.call_id);
        break;
      case 'final':
      case 'error':
        ended = true;
        break;
      default:
        break;
    }
  }
  for (const ask of asks) {
    if (ask.kind === 'question') ask.resulted = results.has(ask.callId);
    if (ask.kind === 'approval') ask.resulted = ask.callId !== null && results.has(ask.callId);
  }
  return { asks, ended };
}

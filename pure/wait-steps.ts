import type { ReminderSchedule } from './approval-policy';

/** One step of a wait for a person (docs/reminders.md), `atSeconds` after the person was asked. */
export type WaitStep =
  | { kind: 'remind'; atSeconds: number }
  | { kind: 'escalate'; atSeconds: number; to: string }
  | { kind: 'timeout'; atSeconds: number; decision: 'approve' | 'reject' }
  | { kind: 'timeout'; atSeconds: number; answer: string };

/**
 * The steps a wait for `waitingFor` goes through under `schedule`, in time order. A timeout is a step only when the
 * schedule gives that kind of wait a default: an approval a `timeout_decision`, a question a `timeout_answer`.
 */
export function waitSteps(schedule: ReminderSchedule | undefined, waitingFor: 'ask_user' | 'approval'): WaitStep[] {
  if (!schedule) return [];
  const steps: WaitStep[] = [];
  if (schedule.remind_after_seconds !== undefined)
    steps.push({ kind: 'remind', atSeconds: schedule.remind_after_seconds });
  if (schedule.escalate_after_seconds !== undefined && schedule.escalate_to !== undefined)
    steps.push({ kind: 'escalate', atSeconds: schedule.escalate_after_seconds, to: schedule.escalate_to });
  const at = schedule.timeout_after_seconds;
  if (at !== undefined && waitingFor === 'approval' && schedule.timeout_decision)
    steps.push({ kind: 'timeout', atSeconds: at, decision: schedule.timeout_decision });
  if (at !== undefined && waitingFor === 'ask_user' && schedule.timeout_answer)
    steps.push({ kind: 'timeout', atSeconds: at, answer: schedule.timeout_answer });
  return steps;
}

import type { EventKind } from './payloads';

/**
 * Every event kind Keel emits, by group. The kinds are those of the payload catalog (EVENT_PAYLOADS): a group naming a
 * kind without a contract does not compile, nor does a contract whose kind is in no group (below). The catalog grows;
 * consumers tolerate unknown kinds.
 */
export const EVENT_KIND_GROUPS = {
  lifecycle: [
    'node_started',
    'node_finished',
    'level_started',
    'level_finished',
    'scenario_started',
    'scenario_finished',
    'scenario_chained',
  ],
  agent: ['thinking', 'tool_call', 'tool_result', 'prompt_sent', 'agent_handoff', 'heartbeat', 'ui_action'],
  routing: ['routing_decision', 'provider_fallback', 'model_fallback'],
  verification: [
    'verifier_started',
    'verifier_finished',
    'gate_decision',
    'scope_checked',
    'scope_confirmed',
    'clarify_checked',
    'clarify_confirmed',
    'solutions_resolved',
  ],
  budget: ['budget_consumed', 'budget_exceeded'],
  artifacts: [
    'final',
    'error',
    'file_created',
    'vercel_deployed',
    'vercel_deploy_failed',
    'build_verify_started',
    'build_verify_passed',
    'build_verify_failed',
  ],
  human: ['ask_user', 'approval_requested', 'human_task_assigned'],
  /**
   * Keel's own additions (the catalog grows): a follow-up prompt reached a running job; a job forked from another;
   * which follow-up policy applied to a job; how an approval ended and the steps of a wait for a person
   * (docs/approval-policies.md, docs/reminders.md); a job waiting for a slot of its org (docs/scheduling.md).
   */
  workflow: [
    'prompt_appended',
    'job_forked',
    'follow_up_applied',
    'approval_decided',
    'reminder_sent',
    'escalated',
    'timed_out',
    'queued',
  ],
  skills: [
    'product_build_started',
    'capability_acquisition_blocked',
    'vertical_discovery_started',
    'vertical_planning_resumed',
    'acquisition_unit_started',
    'acquisition_unit_verified',
    'acquisition_unit_failed',
    'capability_acquired',
  ],
  confirmations: ['template_selected', 'template_scaffolded', 'design_selected', 'design_applied'],
} as const satisfies Record<string, readonly EventKind[]>;

export type KnownEventKind = (typeof EVENT_KIND_GROUPS)[keyof typeof EVENT_KIND_GROUPS][number];

/** Compiles only while every kind of the catalog is in a group. */
const everyKindGrouped: [Exclude<EventKind, KnownEventKind>] extends [never] ? true : never = true;
void everyKindGrouped;

export const TERMINAL_KINDS: ReadonlySet<string> = new Set(['final', 'error']);

export function isTerminalKind(kind: string): boolean {
  return TERMINAL_KINDS.has(kind);
}

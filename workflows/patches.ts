import { patched } from '@temporalio/workflow';

/**
 * Every Temporal patch id of Keel's workflow code, in one list: a change to workflow code that would change the
 * commands a running job replays branches on `patched(ID)`, so jobs started on the old code finish on it and new jobs
 * take the new path (docs/replay.md). Each id stays until no history recorded before it can still be replayed; then
 * `deprecatePatch(ID)` for a release, then the old branch and the id go. Add new ones here, with the date and why.
 */

/** 2026-11-24 (e839bc9): events are appended by a local activity; older histories replay them as activities. */
export const LOCAL_EMIT_PATCH = 'emit-by-local-activity';

/** 2026-11-24 (e839bc9): the job's status writes, scenario loads and run-graph archive run as local activities. */
export const LOCAL_BOOKKEEPING_PATCH = 'job-bookkeeping-by-local-activity';

/**
 * 2026-11-24 (29bc729): the first `running` write is a local activity and each level appends the team lead's
 * `agent_handoff` to it as its own first event, so the job workflow's history holds no activity and no handoff marker
 * (docs/job-history.md).
 */
export const COMPACT_HISTORY_PATCH = 'compact-job-history';

/** 2026-11-24 (9b79a1c): a job run as a work item's child tells the work item of its interrupts. */
export const RELAY_INTERRUPTS_PATCH = 'relay-interrupts-to-work-item';

/** 2026-11-24 (5502e2f): the security and adversarial leads review the executor's result. */
export const REVIEW_LEADS_PATCH = 'review-leads-verdicts';

/** 2026-11-24 (9864b12): a level emits `provider_fallback` when the walk moves past a provider. */
export const PROVIDER_FALLBACK_PATCH = 'provider-fallback-event';

/**
 * 2026-11-24 (05225a3): a wait for a person raises the interrupt (the job learns of it and records `paused`) before
 * the event is appended (docs/human-input.md). Levels recorded before it announced first.
 */
export const RAISE_BEFORE_ANNOUNCE_PATCH = 'raise-interrupt-before-announce';

/** 2026-11-24 (05225a3): a vertical discovery records `paused` before the plan's question is appended. */
export const PAUSED_BEFORE_ASK_PATCH = 'paused-before-ask';

/** 2026-11-24 (42722cf): workflow spans (OpenTelemetry); runs started before it replay untraced. */
export const TRACING_PATCH = 'keel-otel-tracing';

/**
 * 2026-11-28: each level run ends by snapshotting the job's workspace (a manifest of content-addressed blobs, recorded
 * with the level's result; docs/workspace-snapshots.md). Levels recorded before it replay without the activity.
 */
export const WORKSPACE_SNAPSHOT_PATCH = 'workspace-snapshot-per-level-run';

/**
 * 2026-11-28: a job reserves every model call of its levels before it and settles it after, and a call that would pass
 * the job's ceiling or a monthly budget pauses the job for the submitter's decision (raise, a cheaper tier, stop)
 * instead of failing it; the job no longer fails on its total after a level (docs/budgets.md).
 */
export const BUDGET_PAUSE_PATCH = 'budget-pause-and-reservations';

/**
 * 2026-11-28: a level's approval request reads its project's approval policy (an activity) and records what the policy
 * saw; a rule that matches decides it without a person (no wait), and every decision is announced as
 * `approval_decided` (docs/approval-policies.md). Levels recorded before it create the approval and wait.
 */
export const APPROVAL_POLICY_PATCH = 'approval-policies';

/**
 * 2026-11-28: a level's question or approval waits against its project's reminder schedule: durable timers that remind,
 * escalate and, when a default is configured, time out (docs/reminders.md). Levels recorded before it wait without
 * timers.
 */
export const WAIT_REMINDERS_PATCH = 'wait-reminders';

/**
 * 2026-11-28: follow-up policies (docs/follow-up-policies.md): a job records `follow_up_applied`, a job started by
 * `enqueue` or `interrupt` waits for the job it follows (and an interrupt's restores its workspace), and a job asked to
 * stop by an interrupt stops at its next level boundary.
 */
export const FOLLOW_UP_POLICIES_PATCH = 'follow-up-policies';

/**
 * 2026-11-28: an escalation names the people behind its target (`project_owners`: the admins; `role:<name>`: that
 * role's users), read by an activity from the identity service's users, on the event and the approval row
 * (docs/reminders.md). Escalations recorded before it name the target alone.
 */
export const ESCALATION_PEOPLE_PATCH = 'escalation-people';

/**
 * 2026-11-28: a `run_command` call outside its level's allowlist becomes an approval request when the job's project's
 * approval policy says `unlisted_commands: approval` (docs/toolbelt.md); approved, the command runs, otherwise the
 * model is told it was declined. Levels recorded before it answer every unlisted command as refused.
 */
export const UNLISTED_COMMAND_APPROVAL_PATCH = 'unlisted-command-approval';

/**
 * 2026-11-28: a level whose scenario grants MCP servers (`mcp:`) lists their tools by an activity when it starts and
 * offers them beside its own; each call is an activity (docs/mcp.md, "Attaching an MCP server").
 */
export const MCP_TOOLS_PATCH = 'mcp-client-tools';

/**
 * 2026-11-28: fair scheduling (docs/scheduling.md): a job whose input has `scheduling` claims a slot of its org before
 * it runs anything, waits `queued` until granted, and releases the slot however it ends. Only jobs started with
 * JOB_SCHEDULING on carry `scheduling`, so no job recorded before it takes the new path.
 */
export const FAIR_SCHEDULING_PATCH = 'fair-scheduling-slots';

/**
 * 2026-11-28: a queued job's slot claim (the activity and the signals to the jobs it granted) runs to its end even when
 * the job is cancelled meanwhile (docs/scheduling.md). Before, a cancel abandoned the claim's answer, so the jobs its
 * grant pass granted were never told and waited for the backstop re-claim, and a cancelled signal counted as a closed
 * workflow, releasing a live job's slot.
 */
export const SLOT_CLAIM_UNCANCELLED_PATCH = 'slot-claim-uncancelled';

/**
 * 2026-11-28: a question asked again under a call id another level run's answer already closed (the L2 level an
 * escalation runs again re-asks it; the demo model's call ids are a hash of the call, some providers' a counter) is a
 * new wait: the job (and its work item) lists it in `interrupts` and takes its answer (docs/human-input.md). Before, it
 * was ignored as a late duplicate: the job read `paused` with nothing pending, and every answer was refused.
 */
export const REASKED_CALL_REOPENS_PATCH = 'reasked-call-reopens';

/**
 * 2026-11-28: a job queued because its project runs its own limit of jobs (`reason` `project_limit`, per-project limits,
 * docs/scheduling.md) names the project and that limit in its `queued` event. No job recorded before it was queued for
 * that reason (the claim's answer is in its history), so only new histories take the new path.
 */
export const QUEUED_PROJECT_LIMIT_PATCH = 'queued-project-limit';

/**
 * 2026-11-28 (issue 37): a lean run. Recorded once, first, in place of every patch above that its workflow would ask
 * (each patch costs a marker and a `TemporalChangeVersion` upsert, two history events): a run with it took all of them,
 * and its code asks none of them again (`earlierPatch`). The job workflow also stores its events that nothing waits for
 * with its next one (one local activity for several), and a level tells the events it has in a row in one
 * (docs/job-history.md). Runs recorded before it ask the earlier patches as they did.
 */
export const LEAN_HISTORY_PATCH = 'lean-job-history';

/** An earlier patch's answer: true in a lean run (without asking it, so no marker), else `patched(id)`. */
export function earlierPatch(lean: boolean, id: string): boolean {
  return lean || patched(id);
}

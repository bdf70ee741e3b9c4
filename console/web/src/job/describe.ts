import type { JobEvent, JobEventOf, KnownJobEvent } from './events';
import { formatDuration } from '../time';
import { modelAttribution } from '../model-attribution';

/** How a row reads at a glance: a failure, a warning (the job goes on), a success, or plain. */
export type Tone = 'bad' | 'warn' | 'ok' | 'plain';

export interface EventRow {
  title: string;
  detail: string;
  known: boolean;
  tone: Tone;
}

type Row = { title: string; detail?: string; tone?: Tone };
/** How a row names a person from a user id in a payload (an assignee): looked up by the page, else the id itself. */
export type NameOf = (userId: string) => string;
type Describers = { [K in KnownJobEvent['kind']]: (event: JobEventOf<K>, nameOf: NameOf) => Row };

const usd = (value: number | null | undefined) =>
  value === null || value === undefined ? '?' : `$${value.toFixed(4)}`;
const list = (items: readonly string[], none = '') => (items.length > 0 ? items.join('; ') : none);
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a `follow_up_applied` row says, by how the prompt reached (or stopped) the job. */
const FOLLOW_UP_TITLES = {
  running_job: 'A follow-up prompt joined the job',
  new_job: 'Started for a follow-up prompt',
  interrupted: 'Interrupted by a follow-up prompt: stops at the next level boundary',
  rejected: 'A follow-up prompt was refused while the job ran',
} as const;

/**
 * A sentence for every kind of the catalog (events/payloads.ts and the product and skill contracts it spreads in). The
 * mapped type makes a kind added to the catalog without a sentence here a compile error, and describe.test.ts walks
 * the catalog so it fails at test time too.
 */
const DESCRIBE: Describers = {
  scenario_started: (e) => ({ title: `Scenario ${e.payload.scenario} started`, detail: e.payload.levels.join(' → ') }),
  scenario_finished: (e) => ({ title: `Scenario ${e.payload.scenario} finished` }),
  scenario_chained: (e) => ({
    title: `Chained ${e.payload.from} → ${e.payload.to}`,
    detail: e.payload.follow_up_prompts?.length
      ? `for ${count(e.payload.follow_up_prompts.length, 'follow-up prompt')}`
      : '',
  }),
  agent_handoff: (e) => ({
    title: `Handed off ${e.payload.from} → ${e.payload.to}`,
    detail: `attempt ${e.payload.attempt}`,
  }),
  gate_decision: (e) => {
    const p = e.payload;
    const to = p.to ? ` → ${p.to}` : '';
    const by = p.reviewer ? ` (blocking finding of ${p.reviewer})` : '';
    const detail =
      p.decision === 'pass'
        ? p.reviewed_by?.length
          ? `reviewed by ${p.reviewed_by.join(', ')}`
          : 'accepted'
        : list(p.deltas ?? [], 'no changes listed');
    const tone: Tone = p.decision === 'pass' ? 'ok' : p.decision === 'fail' ? 'bad' : 'warn';
    return { title: `Gate ${p.decision}${to}${by}`, detail, tone };
  },
  budget_consumed: (e) => ({
    title: `Spent ${usd(e.payload.level_cost_usd)} on the level`,
    detail: `job total ${usd(e.payload.total_usd)}${e.payload.limit_usd !== null ? ` of ${usd(e.payload.limit_usd)}` : ''}`,
  }),
  // A job that pauses on its budget says which budget and waits for the decision (its ask_user, beside this).
  budget_exceeded: (e) => ({
    title: e.payload.scope
      ? `Budget reached (${e.payload.scope === 'job' ? "the job's" : `the ${e.payload.scope}'s monthly`}): waiting for a decision`
      : 'Job budget exceeded',
    detail: `${usd(e.payload.total_usd)} of ${usd(e.payload.limit_usd)}`,
    tone: 'bad',
  }),
  final: (e) => ({ title: 'Finished', detail: e.payload.summary || e.payload.agent_message, tone: 'ok' }),
  error: (e) =>
    e.payload.code === 'cancelled'
      ? { title: 'Cancelled', detail: e.payload.message }
      : {
          title: `Failed: ${e.payload.code || 'error'}`,
          detail: `${e.payload.message}${e.payload.retryable ? ' (retryable)' : ''}`,
          tone: 'bad',
        },
  prompt_appended: (e) => ({ title: 'A follow-up prompt reached the job', detail: e.payload.preview }),
  follow_up_applied: (e) => ({
    title: FOLLOW_UP_TITLES[e.payload.delivered],
    detail: [`policy ${e.payload.policy}`, e.payload.prompt_id, e.payload.next_job_id ?? e.payload.after_job_id]
      .filter(Boolean)
      .join(' · '),
  }),
  queued: (e) => ({
    title: `Queued, position ${e.payload.position}`,
    detail:
      e.payload.reason === 'org_limit'
        ? `waiting for a slot: the org runs its limit of ${e.payload.org_limit ?? '?'} job${e.payload.org_limit === 1 ? '' : 's'}`
        : e.payload.reason === 'project_limit'
          ? `waiting for a slot: project ${e.payload.project ?? '?'} runs its limit of ${e.payload.project_limit ?? '?'} job${e.payload.project_limit === 1 ? '' : 's'}`
          : `waiting for a slot: all ${e.payload.total_limit ?? ''} slots of the deployment are taken`.replace(
              '  ',
              ' ',
            ),
  }),
  job_forked: (e) => ({
    title: `Forked from ${e.payload.source_job_id}`,
    detail: `${e.payload.from_level_run_id ?? 'from the start'}: ${e.payload.carried_level_ids.length} level runs carried over`,
  }),
  node_started: (e) => ({ title: `Step started (attempt ${e.payload.attempt})`, detail: e.payload.node_id }),
  node_finished: (e) => ({
    title: e.payload.ok ? 'Step finished' : 'Step finished (failed)',
    detail: e.payload.node_id,
    tone: e.payload.ok ? 'plain' : 'bad',
  }),
  routing_decision: (e) => {
    const p = e.payload;
    const asked = { provider: p.provider, model: p.model, displayName: p.model_display_name };
    const candidates = p.model_candidates.length;
    return {
      title: p.offline
        ? 'Routed to the offline demo model (no configured provider could serve)'
        : `Routed: ${modelAttribution({ asked, answered: null })}`,
      detail: `${p.tier ? `tier ${p.tier}` : 'no tier'} · ${count(candidates, 'candidate')}${p.band?.length ? ` · band ${p.band.join(', ')}` : ''}`,
      tone: p.offline ? 'warn' : 'plain',
    };
  },
  level_started: (e) => ({ title: `Level run started`, detail: e.payload.level_id }),
  level_finished: (e) => {
    const p = e.payload;
    const model = modelAttribution({
      asked: null,
      answered: p.model ? { provider: p.provider ?? '', model: p.model } : null,
      composed: p.deterministic,
      finished: true,
    });
    const verdict = p.verdict ? `, verdict ${p.verdict}` : '';
    const tokens =
      p.prompt_tokens !== undefined ? ` · ${(p.prompt_tokens ?? 0) + (p.completion_tokens ?? 0)} tokens` : '';
    const output = readableOutput(p.output_preview);
    return {
      title: `Level run finished ${p.ok ? 'ok' : '(failed)'}${verdict}`,
      detail: `${model} · ${formatDuration(p.duration_ms)} · ${usd(p.cost_usd)}${tokens}${output ? ` · ${output}` : ''}`,
      tone: p.ok && p.verdict !== 'fail' ? 'plain' : 'bad',
    };
  },
  model_fallback: (e) => ({
    title: `Fell back from ${e.payload.from_model || 'the asked-for model'} to ${e.payload.to_provider}/${e.payload.to_model}`,
    detail: e.payload.reason,
    tone: 'warn',
  }),
  provider_fallback: (e) => {
    const p = e.payload;
    const from = p.from_model
      ? `${p.from_provider ? `${p.from_provider}/` : ''}${p.from_model}`
      : p.from_band?.length
        ? `the ${p.from_band.join('/')} band`
        : 'the asked-for tier';
    return {
      title: `Fell back from ${from} to ${p.to_provider}/${p.to_model} (${p.to_tier})`,
      detail: p.reason,
      tone: 'warn',
    };
  },
  verifier_started: (e) => ({ title: `Verification ${e.payload.attempt} started` }),
  verifier_finished: (e) => {
    const p = e.payload;
    const findings = p.findings?.length ? ` · ${p.findings.map((f) => `${f.severity}: ${f.finding}`).join('; ')}` : '';
    return {
      title: `Verdict: ${p.verdict}`,
      detail: `${p.verdict === 'pass' ? list(p.deltas, 'no changes asked') : list(p.deltas, 'no reason given')}${findings}`,
      tone: p.verdict === 'pass' ? 'ok' : p.verdict === 'fail' ? 'bad' : 'warn',
    };
  },
  prompt_sent: (e) => ({ title: `Prompt sent (round ${e.payload.round})`, detail: e.payload.preview }),
  tool_call: (e) => ({ title: `Called the tool ${e.payload.name}`, detail: `call ${e.payload.call_id}` }),
  tool_result: (e) => ({ title: 'Tool result', detail: e.payload.preview }),
  file_created: (e) => ({ title: `Wrote ${e.payload.path}`, detail: `${e.payload.size_bytes} bytes` }),
  thinking: (e) => ({ title: 'Thinking', detail: e.payload.summary }),
  heartbeat: (e) => ({
    title: 'Still waiting for the model',
    detail: `${Math.round(e.payload.waiting_ms / 1000)} s (round ${e.payload.round})`,
  }),
  ask_user: (e) => ({ title: 'Question for you', detail: e.payload.question, tone: 'warn' }),
  approval_requested: (e) => ({
    title: `Approval requested: ${e.payload.action}`,
    detail: e.payload.reason,
    tone: 'warn',
  }),
  // How an approval ended: a policy's rule (docs/approval-policies.md), a person, or its timeout (docs/reminders.md).
  approval_decided: (e, nameOf) => ({
    title: `${e.payload.decision === 'approve' ? 'Approved' : 'Rejected'}${e.payload.action ? `: ${e.payload.action}` : ''}`,
    detail: e.payload.rule_id
      ? `by the project's approval policy (rule ${e.payload.rule_id}); nobody was asked`
      : e.payload.decided_by === 'timeout'
        ? 'by its timeout: nobody answered in time'
        : `by ${nameOf(e.payload.decided_by)}${e.payload.comment ? `: ${e.payload.comment}` : ''}`,
    tone: e.payload.decision === 'approve' ? 'ok' : 'bad',
  }),
  reminder_sent: (e) => ({
    title: `Reminder: ${e.payload.waiting_for === 'approval' ? 'approval' : 'question'} still waiting`,
    detail: `${e.payload.text} · waited ${e.payload.waited_seconds} s`,
    tone: 'warn',
  }),
  escalated: (e) => ({
    title: `Escalated to ${e.payload.to === 'project_owners' ? 'the project owners' : e.payload.to.replace(/^role:/, '')}`,
    detail: `${e.payload.text} · unanswered for ${e.payload.waited_seconds} s`,
    tone: 'warn',
  }),
  timed_out: (e) => ({
    title: `Timed out: ${e.payload.waiting_for === 'approval' ? 'approval' : 'question'} settled by its default`,
    detail: `${e.payload.text} → ${e.payload.decision ?? e.payload.answer ?? 'no default'}`,
    tone: 'bad',
  }),

  // Product builds
  scope_checked: (e) => {
    const p = e.payload;
    const verdict = { in_scope: 'in scope', borderline: 'borderline', out_of_scope: 'out of scope' }[p.verdict];
    return {
      title: `Scope check: ${verdict}`,
      detail: p.rule
        ? `rule “${p.rule}”${p.matched.length ? ` matched ${p.matched.join(', ')}` : ''}`
        : `${count(p.rules_checked, 'rule')} checked, none matched`,
      tone: p.verdict === 'in_scope' ? 'ok' : 'warn',
    };
  },
  scope_confirmed: (e) => ({
    title: e.payload.confirmed ? 'Scope confirmed by a person' : 'Scope declined by a person',
    detail: `answer: ${e.payload.answer}`,
    tone: e.payload.confirmed ? 'ok' : 'warn',
  }),
  clarify_checked: (e) => ({
    title: e.payload.clear ? 'The request is clear' : 'The request needs a clarification',
    detail: e.payload.question ? `${e.payload.reason} · asks: ${e.payload.question}` : e.payload.reason,
  }),
  clarify_confirmed: (e) => ({ title: 'Clarified by a person', detail: `answer: ${e.payload.answer}` }),
  solutions_resolved: (e) => ({
    title: `Solution chosen: ${e.payload.chosen}`,
    detail: `${e.payload.reason}${e.payload.alternatives.length ? ` · over ${e.payload.alternatives.map((a) => a.id).join(', ')}` : ''}`,
  }),
  template_selected: (e) => ({
    title: `Template ${e.payload.name}${e.payload.pinned ? ' (pinned)' : ''}`,
    detail: e.payload.reason,
  }),
  template_scaffolded: (e) => ({
    title: `Scaffolded ${e.payload.template_id}`,
    detail: `${count(e.payload.files.length, 'file')}: ${e.payload.files.map((f) => f.path).join(', ')}`,
  }),
  design_selected: (e) => ({
    title: `Design ${e.payload.name}${e.payload.pinned ? ' (pinned)' : ''}`,
    detail: e.payload.reason,
  }),
  design_applied: (e) => ({
    title: `Applied the design ${e.payload.design_id}`,
    detail: `${e.payload.path} · ${e.payload.layout} layout · ${count(Object.keys(e.payload.tokens).length, 'token')}`,
  }),
  build_verify_started: (e) => ({
    title: `Build ${e.payload.attempt} started (${e.payload.template_id})`,
    detail: e.payload.commands.join(' && '),
  }),
  build_verify_passed: (e) => ({
    title: `Build ${e.payload.attempt} passed its ${e.payload.step} step`,
    detail: `${e.payload.command} · ${formatDuration(e.payload.duration_ms)}`,
    tone: 'ok',
  }),
  build_verify_failed: (e) => {
    const p = e.payload;
    const why = p.killed
      ? `stopped (${p.killed === 'timeout' ? 'timed out' : 'too much output'})`
      : `exit ${p.exit_code ?? '?'}`;
    return {
      title: `Build ${p.attempt} failed its ${p.step} step: ${why}`,
      detail: `${p.command} · ${p.output_tail.trim().split('\n').slice(-1)[0] ?? ''}`,
      tone: 'bad',
    };
  },
  vercel_deployed: (e) => ({
    title: `Deployed to ${e.payload.url}`,
    detail: `${count(e.payload.files, 'file')} · ${e.payload.ready_state}`,
    tone: 'ok',
  }),
  vercel_deploy_failed: (e) => ({
    title: 'The deploy failed',
    detail: `${e.payload.status !== null ? `HTTP ${e.payload.status}: ` : ''}${e.payload.message}`,
    tone: 'bad',
  }),
  human_task_assigned: (e, nameOf) => ({
    title: `Task for ${e.payload.assignee ? nameOf(e.payload.assignee) : 'a person'}: ${e.payload.title}`,
    detail: `${e.payload.detail}${e.payload.due_at ? ` · due ${e.payload.due_at}` : ''}`,
    tone: 'warn',
  }),
  ui_action: (e) => {
    const what = { open_approval: 'an approval', open_task: 'a task', open_url: 'a link', open_file: 'a file' }[
      e.payload.action
    ];
    return { title: `${e.payload.label}`, detail: `opens ${what}: ${e.payload.target}` };
  },

  // Skill acquisition
  product_build_started: (e) => ({
    title: `Work item ${e.payload.work_item} (${e.payload.work_type}) started`,
    detail: e.payload.missing.length
      ? `acquires first: ${e.payload.missing.join(', ')}`
      : `${count(e.payload.capabilities.length, 'capability', 'capabilities')} in place`,
  }),
  acquisition_unit_started: (e) => ({
    title: `Acquiring ${e.payload.capability}: ${e.payload.unit} (attempt ${e.payload.attempt})`,
    detail: `${e.payload.kind} · roadmap ${e.payload.roadmap_id}`,
  }),
  acquisition_unit_verified: (e) => ({
    title: `${e.payload.capability}: ${e.payload.unit} verified`,
    detail: list(e.payload.evidence, 'no evidence listed'),
    tone: 'ok',
  }),
  acquisition_unit_failed: (e) => ({
    title: `${e.payload.capability}: ${e.payload.unit} failed (attempt ${e.payload.attempt}${e.payload.final ? ', the last' : ''})`,
    detail: e.payload.reason,
    tone: e.payload.final ? 'bad' : 'warn',
  }),
  capability_acquired: (e) => ({
    title: `Capability ${e.payload.capability} acquired`,
    detail: e.payload.units.map((u) => `${u.unit} in ${count(u.attempts, 'attempt')}`).join(', '),
    tone: 'ok',
  }),
  capability_acquisition_blocked: (e) => ({
    title: `Capability ${e.payload.capability} blocked at ${e.payload.unit}`,
    detail: `${e.payload.reason} · to do: ${e.payload.action}`,
    tone: 'bad',
  }),
  vertical_discovery_started: (e) => ({
    title: `Discovering the vertical ${e.payload.name}`,
    detail: e.payload.vertical_id,
  }),
  vertical_planning_resumed: (e) => ({
    title: e.payload.confirmed ? 'Vertical plan confirmed' : 'Vertical plan declined',
    detail: e.payload.note ?? '',
  }),
};

/**
 * A level's output preview for a row: prose as it is; a verdict level's JSON answer (`{"verdict":"pass","deltas":[]}`)
 * as what it says; other JSON (or a preview cut mid-JSON) as a pointer to the drawer, never the braces themselves.
 */
export function readableOutput(preview: string): string {
  const text = preview.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return text;
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value) && 'verdict' in value) {
      const v = value as { verdict: unknown; deltas?: unknown; findings?: unknown };
      const deltas = Array.isArray(v.deltas) ? v.deltas.length : 0;
      const findings = Array.isArray(v.findings) ? v.findings.length : 0;
      const asked =
        deltas > 0
          ? `${count(deltas, 'change')} asked`
          : findings > 0
            ? count(findings, 'finding')
            : 'nothing to change';
      return `answered ${String(v.verdict)}, ${asked}`;
    }
  } catch {
    // A preview is cut at 280 characters: structured output that no longer parses.
  }
  return 'structured output (open the row to read it)';
}

/** Kinds the job page has a sentence for: every kind of the catalog. */
export const DESCRIBED_KINDS: readonly string[] = Object.keys(DESCRIBE);

/** The user ids the rows of `events` name (a human task's assignee), for the page to look up once. */
export function peopleNamedBy(events: readonly JobEvent[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.known && event.kind === 'human_task_assigned' && event.payload.assignee) ids.add(event.payload.assignee);
  }
  return [...ids];
}

/**
 * One row per event for the timeline and the drawer. A kind this build does not know (or a payload that does not fit
 * its contract) gets a generic row: the kind and the start of its payload, the whole of which the drawer shows.
 */
export function describeEvent(event: JobEvent, nameOf: NameOf = (id) => id): EventRow {
  if (event.known) {
    const describe = DESCRIBE[event.kind] as (e: KnownJobEvent, nameOf: NameOf) => Row;
    const row = describe(event, nameOf);
    return { title: row.title, detail: row.detail ?? '', tone: row.tone ?? 'plain', known: true };
  }
  return { title: event.kind, detail: JSON.stringify(event.payload).slice(0, 300), known: false, tone: 'plain' };
}

import { z } from 'zod';
import { RUNGS } from '../pure/rungs';
import { PRODUCT_PAYLOAD_CONTRACTS } from './product-payloads';
import { skillPayloads } from './skill-payloads';

/**
 * The payload contract of every kind Keel emits, with the spec's fields where it states them and Keel's own beside them
 * (docs/events.md lists them). The append activity parses each draft against its kind's contract; workflow code emits
 * through `EventPayload<K>` (types only), so an unknown kind or a wrong payload does not compile. Objects are loose
 * at parse time: the catalog grows by adding fields, and older consumers ignore them. Kinds without a contract
 * (another writer's, or a future one) still pass through the stream to clients.
 */

const levelId = z.string().min(1);
/** The signed, expiring, single-use page where a person outside Keel answers (docs/answer-links.md); minted on append. */
const answerUrl = z.string().optional();
const count = z.number().int().min(0);
const attempt = z.number().int().min(1);
const usd = z.number().min(0);
const rung = z.enum(RUNGS);

/** The fields every step of a wait's reminder schedule carries, and the step's own. */
function waitStep<S extends z.ZodRawShape>(own: S) {
  return z.looseObject({
    level_id: levelId,
    /** What waits: a question (`ask_user`) or an approval. */
    waiting_for: z.enum(['ask_user', 'approval']),
    call_id: z.string(),
    approval_id: z.string().optional(),
    /** The question or the approval's action. */
    text: z.string(),
    /** Seconds since the person was asked. */
    waited_seconds: count,
    ...own,
  });
}

export const EVENT_PAYLOADS = {
  // Job and scenario (agent_role L1.team_lead, which speaks for the job)
  scenario_started: z.looseObject({ scenario: z.string(), levels: z.array(z.string()) }),
  scenario_finished: z.looseObject({ scenario: z.string() }),
  scenario_chained: z.looseObject({
    from: z.string(),
    to: z.string(),
    /** The follow-up prompts that made the job run its scenario again, when that is why. */
    follow_up_prompts: z.array(z.string()).optional(),
  }),
  agent_handoff: z.looseObject({ from: z.string(), to: z.string(), attempt }),
  gate_decision: z.looseObject({
    level_id: levelId,
    /** Which verification of the job this is. */
    attempt,
    decision: z.enum(['pass', 'retry', 'escalate', 'fail']),
    /** `pass` only. */
    verdict: z.string().optional(),
    /** `retry` (the executor) and `escalate` (the issuing L2 level). */
    to: z.string().optional(),
    deltas: z.array(z.string()).optional(),
    /** A review lead whose blocking finding failed the result (`level_id` is then its review run). */
    reviewer: z.string().optional(),
    /** `pass` only: the review leads that reviewed the result, in order. */
    reviewed_by: z.array(z.string()).optional(),
  }),
  budget_consumed: z.looseObject({
    level_id: levelId,
    level_cost_usd: usd,
    total_usd: usd,
    limit_usd: usd.nullable(),
    /** Jobs that reserve their calls: what the level reserved in all (estimates), beside what it settled at. */
    level_reserved_usd: usd.optional(),
  }),
  budget_exceeded: z.looseObject({
    /** Settled plus reserved against the budget (the job's, or for a monthly budget the org's or project's). */
    total_usd: usd,
    limit_usd: usd.nullable(),
    /**
     * Jobs that pause on their budget (docs/budgets.md): which budget (`job`, `project`, `org`), the level and the
     * decision's question (`call_id`, answered like any ask_user), the call's estimate, the job's settled and reserved
     * spend, the answers offered and the default raise.
     */
    scope: z.enum(['job', 'user', 'project', 'org']).optional(),
    /** A user's own monthly budget (scope `user`): whose. */
    user_id: z.string().optional(),
    org_id: z.string().optional(),
    project_slug: z.string().optional(),
    level_id: levelId.optional(),
    call_id: z.string().optional(),
    estimate_usd: usd.optional(),
    settled_usd: usd.optional(),
    reserved_usd: usd.optional(),
    choices: z.array(z.string()).optional(),
    default_raise_usd: usd.optional(),
  }),
  final: z.looseObject({
    agent_message: z.string(),
    summary: z.string(),
    /** Cumulative across chained scenarios. */
    created_files: z.array(z.string()),
    /** The strongest rung any level asked for; null when none did. */
    effort: rung.nullable().optional(),
    reasoning_tokens: count.optional(),
    prompt_tokens: count.optional(),
    completion_tokens: count.optional(),
    cost_usd: usd.optional(),
    /** A fork: the part of `cost_usd` its carried level runs cost (spent by its source, not by this job). */
    carried_cost_usd: usd.optional(),
    /** A product build that was deployed: where it went live. */
    deployed_url: z.string().optional(),
    /** A roadmap job's roadmap, a discovery job's vertical (docs/capabilities.md). */
    roadmap_id: z.string().optional(),
    vertical_id: z.string().optional(),
  }),
  error: z.looseObject({
    retryable: z.boolean(),
    message: z.string(),
    /** `cancelled`, `verification_failed`, `budget_exceeded` or `job_failed`. */
    code: z.string().optional(),
  }),
  prompt_appended: z.looseObject({ prompt_id: z.string(), preview: z.string() }),
  /**
   * A job waits for a slot of its org (docs/scheduling.md): its place in its org's queue (1 is next), why it waits
   * (`org_limit`: its org runs as many jobs as it may; `project_limit`: its project runs as many as its own limit
   * allows; `total_limit`: every slot of the deployment is taken) and the limits it waits on (`org_limit` null:
   * unlimited; `project` and `project_limit` with `project_limit` only). Emitted once, when the job is first queued.
   */
  queued: z.looseObject({
    position: z.number().int().min(1),
    reason: z.enum(['org_limit', 'project_limit', 'total_limit']),
    org_limit: z.number().int().nullable(),
    total_limit: z.number().int().optional(),
    project: z.string().nullable().optional(),
    project_limit: z.number().int().nullable().optional(),
  }),
  /**
   * Which follow-up policy applied to this job (docs/follow-up-policies.md): `running_job` (amend: the prompt joined
   * it), `new_job` (it was started for the prompt; `after_job_id` the job it waited for, an interrupt's
   * `carried_manifest_sha256` the workspace it restored), `interrupted` (it stops at its next level boundary for
   * `next_job_id`), `rejected` (a prompt was refused with 409 while it ran; no prompt was stored).
   */
  follow_up_applied: z.looseObject({
    policy: z.enum(['amend', 'enqueue', 'interrupt', 'reject']),
    prompt_id: z.string().optional(),
    delivered: z.enum(['running_job', 'new_job', 'interrupted', 'rejected']),
    after_job_id: z.string().optional(),
    next_job_id: z.string().optional(),
    carried_manifest_sha256: z.string().nullable().optional(),
  }),
  /**
   * A fork's first event after its workspace is restored (docs/fork-and-compare.md): the source job, the fork point,
   * and the source's level runs the fork carries over (each then appears as a level_started/level_finished pair
   * marked `carried_over`).
   */
  job_forked: z.looseObject({
    source_job_id: z.string(),
    /** The source's level run the fork starts after; null for a fork from the start. */
    from_level_run_id: levelId.nullable(),
    /** The event sequence the caller named, when it named one. */
    from_sequence: count.optional(),
    /** The workspace restored (the fork point's manifest), null when the fork starts from an empty one. */
    manifest_sha256: z.string().nullable(),
    carried_level_ids: z.array(levelId),
    model_tier: z.string().nullable(),
    prompt_patched: z.boolean(),
  }),

  // Level lifecycle (agent_role = the level's role). Every event a level run emits names it as `level_id` (its
  // workflow id, `<job_id>/<role>/<attempt>`), so two runs' events, alike otherwise, can be told apart.
  node_started: z.looseObject({ node_id: levelId, level_id: levelId, role: z.string(), attempt }),
  node_finished: z.looseObject({ node_id: levelId, level_id: levelId, ok: z.boolean() }),
  routing_decision: z.looseObject({
    /** Absent only on the legacy job-level variant, which must not be attributed to a level. */
    level_id: levelId.optional(),
    provider: z.string(),
    /** The intended model; may be empty. */
    model: z.string(),
    model_display_name: z.string().optional(),
    tier: z.string(),
    model_candidates: z.array(
      z.looseObject({
        provider: z.string(),
        model: z.string(),
        tier: z.string().optional(),
        effort: rung.nullable().optional(),
      }),
    ),
    /** The budget band's tiers, leading tier first; null when the role or budget gave none. */
    band: z.array(z.string()).nullable().optional(),
    band_dropped: z.boolean().optional(),
    /** No configured provider could serve the level; the offline demo model stands in. */
    offline: z.boolean().optional(),
  }),
  level_started: z.looseObject({
    level_id: levelId,
    role: z.string(),
    attempt,
    /** A fork's level run carried over from its source instead of run (no model call): the source's level run. */
    carried_over: z.literal(true).optional(),
    source_level_id: levelId.optional(),
  }),
  level_finished: z.looseObject({
    level_id: levelId,
    ok: z.boolean(),
    attempt,
    duration_ms: count,
    cost_usd: usd,
    output_preview: z.string(),
    verdict: z.string().optional(),
    /** Only for levels that called an LLM: the model that actually answered. */
    provider: z.string().optional(),
    model: z.string().optional(),
    /** The strongest rung the level's calls asked for. */
    effort: rung.optional(),
    reasoning_tokens: count.optional(),
    /** Summed over the level's LLM calls, as the vendor reported them. */
    prompt_tokens: count.optional(),
    completion_tokens: count.optional(),
    /** Of prompt_tokens, those the vendor read from its prompt cache (priced at the catalog's cached rate). */
    cached_prompt_tokens: count.optional(),
    /** Keel's estimate of prompt_tokens before each call, summed (docs/models.md: meant to stay above the vendor's count). */
    prompt_tokens_estimated: count.optional(),
    /** Tool results cut, and older ones dropped, to fit the model's context window. */
    tool_results_cut: count.optional(),
    tool_results_dropped: count.optional(),
    /** A level composed in code. */
    deterministic: z.literal(true).optional(),
    /** The non-LLM intent it answered (`command`, `rule`, `fact`). */
    intent: z.string().optional(),
    /** A fork's level run carried over from its source instead of run (no model call): the source's level run. */
    carried_over: z.literal(true).optional(),
    source_level_id: levelId.optional(),
  }),
  model_fallback: z.looseObject({
    level_id: levelId.optional(),
    from_model: z.string(),
    to_model: z.string(),
    to_provider: z.string(),
    reason: z.string(),
  }),
  verifier_started: z.looseObject({ level_id: levelId, attempt }),
  verifier_finished: z.looseObject({
    level_id: levelId,
    verdict: z.enum(['pass', 'fail', 'unknown']),
    deltas: z.array(z.string()),
    /** A review lead's review: every finding, blocking or not (only blocking ones fail it and become deltas). */
    findings: z
      .array(z.object({ severity: z.enum(['blocking', 'major', 'minor']), finding: z.string(), fix: z.string() }))
      .optional(),
  }),

  // Agent activity
  prompt_sent: z.looseObject({
    level_id: levelId,
    round: attempt,
    preview: z.string(),
    /** A job that reserves its calls (docs/budgets.md): this call's reservation and its estimated cost. */
    reservation_id: z.string().optional(),
    reserved_usd: usd.optional(),
  }),
  tool_call: z.looseObject({ level_id: levelId, call_id: z.string(), name: z.string() }),
  tool_result: z.looseObject({ level_id: levelId, call_id: z.string(), preview: z.string() }),
  file_created: z.looseObject({ level_id: levelId, path: z.string(), sha256: z.string(), size_bytes: count }),
  thinking: z.looseObject({ level_id: levelId, round: attempt, summary: z.string() }),
  heartbeat: z.looseObject({ level_id: levelId, round: attempt, waiting_ms: count }),

  // People
  ask_user: z.looseObject({
    call_id: z.string(),
    question: z.string(),
    level_id: levelId,
    /** A question that takes only these answers (a budget decision), as offered; free text otherwise. */
    choices: z.array(z.string()).optional(),
    answer_url: answerUrl,
  }),
  approval_requested: z.looseObject({
    approval_id: z.string(),
    call_id: z.string(),
    action: z.string(),
    reason: z.string(),
    level_id: levelId,
    answer_url: answerUrl,
  }),
  /** How an approval ended (docs/approval-policies.md): by a person, a policy's rule, or its timeout. */
  approval_decided: z.looseObject({
    approval_id: z.string(),
    call_id: z.string(),
    level_id: levelId,
    decision: z.enum(['approve', 'reject']),
    /** A user id, `policy:<rule id>`, `timeout`, or `link:<id>` for an answer link. */
    decided_by: z.string(),
    /** A policy's decision: the rule that decided, and the approval never waited for a person. */
    rule_id: z.string().optional(),
    action: z.string().optional(),
    comment: z.string().optional(),
  }),
  /** A wait for a person reached a step of its project's reminder schedule (docs/reminders.md). */
  reminder_sent: waitStep({}),
  escalated: waitStep({
    to: z.string(),
    /** Who `to` stands for (`project_owners`: the admins), from the identity service's users; absent: not resolved. */
    people: z.array(z.looseObject({ id: z.string(), email: z.string(), name: z.string().nullable() })).optional(),
  }),
  timed_out: waitStep({
    /** An approval: what it was decided as. */
    decision: z.enum(['approve', 'reject']).optional(),
    /** A question: the answer the level was given. */
    answer: z.string().optional(),
  }),

  // Product builds (docs/product-builds.md)
  ...PRODUCT_PAYLOAD_CONTRACTS,
  // Skill acquisition: capability roadmaps, product builds of work items, vertical discovery
  ...skillPayloads,
} as const;

/** A kind Keel emits: one with a payload contract. */
export type EventKind = keyof typeof EVENT_PAYLOADS;

/**
 * What an emitter writes for `kind`: exactly the contract's fields (no index signature, so a misspelt field is a
 * compile error too), before the append activity fills in what it measures (`duration_ms`).
 */
export type EventPayload<K extends EventKind> = z.input<z.ZodObject<(typeof EVENT_PAYLOADS)[K]['shape']>>;

export function hasContract(kind: string): kind is EventKind {
  return Object.hasOwn(EVENT_PAYLOADS, kind);
}

import type { JobEvent, JobEventOf } from './events';

export interface Hop {
  fromModel: string;
  toModel: string;
  toProvider: string;
  reason: string;
}

export interface Tokens {
  prompt: number;
  completion: number;
  reasoning: number;
}

export interface ToolUse {
  callId: string;
  name: string;
  sequence: number;
  /** The result's preview (events carry the first 280 characters); null until it arrives. */
  result: string | null;
}

/** What a level run is, for a label: a step of a product build, a build, a verification, a review, or a level run. */
export type RunKind = 'level' | 'step' | 'build' | 'verification' | 'review';

/** How a run stands: a job that ended leaves no run "running" (it was cancelled with the job, or interrupted). */
export type RunState = 'routed' | 'running' | 'ok' | 'failed' | 'cancelled' | 'interrupted';

export interface LevelRun {
  /** `<role>/<suffix>`: the level id without the job (`L4.executor/2`, `L1.team_lead/prelude`). */
  key: string;
  /** The level id the events name (`<job>/<role>/<suffix>`), the step drawer's `?step=`. */
  levelId: string;
  role: string;
  /** The number in the level id: a per-job count of the role's runs (across chained scenarios), not a retry count. */
  attempt: number;
  kind: RunKind;
  /** "attempt 2", "review 1", "build 3", "prelude"; empty for a level's first run in its scenario. */
  label: string;
  /** Why this run happened again: the gate decision that sent work back to its role. */
  retryReason: string | null;
  scenario: string | null;
  state: RunState;
  startedAt: string | null;
  finishedAt: string | null;
  ok: boolean | null;
  verdict: string | null;
  deltas: string[];
  durationMs: number | null;
  costUsd: number | null;
  tokens: Tokens | null;
  /** What routing meant to use (`routing_decision`), and the model that actually answered (`level_finished`). */
  intended: { provider: string; model: string; displayName: string | null; tier: string | null } | null;
  answered: { provider: string; model: string } | null;
  /** Routing found no configured provider: the offline demo model stood in. */
  offline: boolean;
  /** What the person's budget asked for when routing rerouted (`provider_fallback`): "the cheap tier", "openai/gpt". */
  askedFor: string | null;
  deterministic: boolean;
  hops: Hop[];
  gate: { decision: string; to: string | null; deltas: string[] } | null;
  prompts: { round: number; preview: string; sequence: number }[];
  tools: ToolUse[];
  thinking: string[];
  output: string | null;
  /** Every event that names this run, in order (its lifecycle and cost rows fold into it). */
  sequences: number[];
}

export interface LevelGroup {
  level: string;
  runs: LevelRun[];
}

export interface Question {
  callId: string;
  question: string;
  role: string;
  answered: boolean;
}

export interface ApprovalAsk {
  approvalId: string;
  callId: string | null;
  action: string;
  reason: string;
  role: string;
  settled: boolean;
}

/**
 * A model or provider the job did not get, a line of the job page's fallback banner: one per distinct fallback, with
 * the roles it happened to (a job on the demo model has the same fallback at every level).
 */
export interface Fallback {
  roles: string[];
  sequence: number;
  text: string;
  /** The offline demo model answered instead of a configured provider. */
  demo: boolean;
}

/**
 * How the job ended, as a person should read it: a cancel is neutral and names who, a completed job with a failed
 * step (a deploy) is "completed with warnings", and only a real failure is red.
 */
export type Ending =
  | { kind: 'completed'; summary: string }
  | { kind: 'completed_with_warnings'; summary: string; warnings: string[] }
  | { kind: 'cancelled'; message: string }
  | { kind: 'failed'; code: string; message: string };

export interface JobView {
  groups: LevelGroup[];
  /** Every run in the order it started. */
  runs: LevelRun[];
  retries: number;
  escalations: number;
  costUsd: number | null;
  limitUsd: number | null;
  tokens: Tokens | null;
  budgetExceeded: boolean;
  questions: Question[];
  approvals: ApprovalAsk[];
  files: string[];
  final: JobEventOf<'final'> | null;
  failure: JobEventOf<'error'> | null;
  ending: Ending | null;
  /** Non-fatal steps that failed (a deploy, a level whose failure the job survived). */
  warnings: string[];
  fallbacks: Fallback[];
  scenarios: string[];
  /** The level id each event belongs to, by sequence: the timeline folds lifecycle rows into their run. */
  levelOfEvent: Map<number, string>;
}

/** `L4.executor` → `L4`; a role without a level prefix is grouped under its whole name. */
export function levelOf(role: string): string {
  const match = /^(L[1-4])\./.exec(role);
  return match ? match[1]! : role;
}

/** `<job_id>/<role>/<suffix>` → role and suffix (the level id is the child workflow id: `/2`, `/prelude`, `/release`). */
function splitLevelId(levelId: string): { role: string; suffix: string } | null {
  const parts = levelId.split('/');
  if (parts.length < 3) return null;
  return { role: parts[parts.length - 2]!, suffix: parts[parts.length - 1]! };
}

/** Kinds that are a run's lifecycle or bookkeeping: the timeline folds them into the run's row in the level tree. */
export const FOLDED_KINDS: ReadonlySet<string> = new Set(['node_started', 'node_finished', 'budget_consumed']);

const emptyTokens = (): Tokens => ({ prompt: 0, completion: 0, reasoning: 0 });

/** Everything the job page shows beside the timeline, folded from the events in sequence order. */
/** `rowEnded`: the job row's status once it is terminal (see the runs' states below), else null. */
export function deriveJob(events: readonly JobEvent[], rowEnded: string | null = null): JobView {
  const runs = new Map<string, LevelRun>();
  const questions = new Map<string, Question>();
  const approvals = new Map<string, ApprovalAsk>();
  const answeredCalls = new Set<string>();
  const files: string[] = [];
  const scenarios: string[] = [];
  /** Each run's fallback at routing (a `provider_fallback` replaces the offline `routing_decision`'s), and each hop. */
  const fallbackLines = new Map<string, { role: string; sequence: number; text: string; demo: boolean }>();
  const warnings: string[] = [];
  const levelOfEvent = new Map<number, string>();
  /** A gate decision that sent work back to a role, waiting for that role's next run. */
  const sentBack = new Map<string, string>();
  /** Runs of each role in each scenario so far: a run's ordinal there is what "attempt" means to a person. */
  const ordinals = new Map<string, number>();
  const startOrder = new Map<string, number>();
  let retries = 0;
  let escalations = 0;
  let costUsd: number | null = null;
  let limitUsd: number | null = null;
  let budgetExceeded = false;
  let final: JobEventOf<'final'> | null = null;
  let failure: JobEventOf<'error'> | null = null;
  let deployFailure: string | null = null;
  let scenario: string | null = null;
  let current = 0;

  const runFor = (levelId: string | undefined): LevelRun | null => {
    const parts = levelId ? splitLevelId(levelId) : null;
    if (!levelId || !parts) return null;
    const key = `${parts.role}/${parts.suffix}`;
    let found = runs.get(key);
    if (!found) {
      const attempt = Number(parts.suffix);
      found = {
        key,
        levelId,
        role: parts.role,
        attempt: Number.isInteger(attempt) ? attempt : 1,
        kind: Number.isInteger(attempt) ? 'level' : 'step',
        label: Number.isInteger(attempt) ? '' : parts.suffix,
        retryReason: null,
        scenario,
        state: 'routed',
        startedAt: null,
        finishedAt: null,
        ok: null,
        verdict: null,
        deltas: [],
        durationMs: null,
        costUsd: null,
        tokens: null,
        intended: null,
        answered: null,
        offline: false,
        askedFor: null,
        deterministic: false,
        hops: [],
        gate: null,
        prompts: [],
        tools: [],
        thinking: [],
        output: null,
        sequences: [],
      };
      runs.set(key, found);
      startOrder.set(key, current);
      if (found.kind === 'level') {
        const ordinal = (ordinals.get(`${scenario}|${parts.role}`) ?? 0) + 1;
        ordinals.set(`${scenario}|${parts.role}`, ordinal);
        if (ordinal > 1) found.label = `attempt ${ordinal}`;
        const why = sentBack.get(parts.role);
        if (why) {
          found.retryReason = why;
          sentBack.delete(parts.role);
        }
      }
    }
    if (found.sequences.at(-1) !== current) found.sequences.push(current);
    levelOfEvent.set(current, found.levelId);
    return found;
  };

  for (const event of events) {
    current = event.sequence;
    // A kind this build does not know, or a payload that does not fit its contract, is the timeline's alone.
    if (!event.known) continue;
    const levelId = 'level_id' in event.payload ? event.payload.level_id : undefined;
    const target = typeof levelId === 'string' ? runFor(levelId) : null;
    switch (event.kind) {
      case 'scenario_started':
        scenario = event.payload.scenario;
        scenarios.push(event.payload.scenario);
        break;
      case 'level_started':
        if (target) {
          target.startedAt = event.occurred_at;
          startOrder.set(target.key, event.sequence);
        }
        break;
      case 'routing_decision': {
        // The legacy job-level variant carries no level_id and must not be attributed to a level (spec).
        const p = event.payload;
        if (target) {
          target.intended = {
            provider: p.provider,
            model: p.model,
            displayName: p.model_display_name || null,
            tier: p.tier,
          };
          target.offline = p.offline === true;
        }
        if (p.offline) {
          fallbackLines.set(`${p.level_id ?? event.sequence}|route`, {
            role: event.agent_role,
            sequence: event.sequence,
            text: `no configured provider could serve the ${p.band?.join('/') || p.tier || 'asked-for'} tier; the offline demo model answered`,
            demo: true,
          });
        }
        break;
      }
      case 'model_fallback': {
        const p = event.payload;
        target?.hops.push({
          fromModel: p.from_model,
          toModel: p.to_model,
          toProvider: p.to_provider,
          reason: p.reason,
        });
        fallbackLines.set(`${p.level_id ?? ''}|hop|${event.sequence}`, {
          role: event.agent_role,
          sequence: event.sequence,
          text: `asked for ${p.from_model || 'its routed model'}, fell back to ${p.to_provider}/${p.to_model} (${p.reason})`,
          demo: p.to_provider === 'demo',
        });
        break;
      }
      case 'provider_fallback': {
        const p = event.payload;
        const from = p.from_model
          ? `${p.from_provider ?? ''}/${p.from_model}`
          : `the ${p.from_band?.join('/') ?? p.from_tier ?? ''} tier`;
        if (target) target.askedFor = from;
        fallbackLines.set(`${p.level_id}|route`, {
          role: event.agent_role,
          sequence: event.sequence,
          text: `asked for ${from}, answered by ${p.to_provider}/${p.to_model} (${p.reason})`,
          demo: p.to_provider === 'demo',
        });
        break;
      }
      case 'level_finished': {
        const p = event.payload;
        if (!target) break;
        target.finishedAt = event.occurred_at;
        target.ok = p.ok;
        target.durationMs = p.duration_ms;
        target.costUsd = p.cost_usd;
        target.verdict = p.verdict ?? target.verdict;
        target.deterministic = p.deterministic === true;
        target.output = p.output_preview;
        if (p.prompt_tokens !== undefined || p.completion_tokens !== undefined || p.reasoning_tokens !== undefined) {
          target.tokens = {
            prompt: p.prompt_tokens ?? 0,
            completion: p.completion_tokens ?? 0,
            reasoning: p.reasoning_tokens ?? 0,
          };
        }
        // Only levels that called a model name one; consumers must not default them (spec).
        target.answered = p.provider && p.model ? { provider: p.provider, model: p.model } : null;
        break;
      }
      case 'verifier_started':
        if (target) {
          target.kind = target.role.startsWith('L3.') ? 'verification' : 'review';
          target.label = `${target.kind} ${event.payload.attempt}`;
        }
        break;
      case 'verifier_finished':
        if (target) {
          target.verdict = event.payload.verdict;
          target.deltas = event.payload.deltas;
        }
        break;
      case 'build_verify_started':
        if (target) {
          target.kind = 'build';
          target.label = `build ${event.payload.attempt}`;
          target.startedAt = event.occurred_at;
          startOrder.set(target.key, event.sequence);
        }
        break;
      case 'build_verify_passed':
      case 'build_verify_failed':
        if (target) {
          const p = event.payload;
          target.finishedAt = event.occurred_at;
          target.ok = event.kind === 'build_verify_passed';
          target.durationMs = (target.durationMs ?? 0) + p.duration_ms;
          target.output = `${p.step}: ${p.command}\n${p.output_tail}`;
          target.verdict = target.ok ? 'pass' : 'fail';
        }
        break;
      case 'gate_decision': {
        const p = event.payload;
        if (p.decision === 'retry') retries += 1;
        if (p.decision === 'escalate') escalations += 1;
        if (target) target.gate = { decision: p.decision, to: p.to ?? null, deltas: p.deltas ?? [] };
        if ((p.decision === 'retry' || p.decision === 'escalate') && p.to) {
          const what = p.decision === 'retry' ? 'retried' : 'escalated';
          const by = p.reviewer ? ` by ${p.reviewer}'s review` : '';
          sentBack.set(
            p.to,
            `${what}${by} after verification ${p.attempt}: ${(p.deltas ?? []).join('; ') || 'no reason given'}`,
          );
        }
        break;
      }
      case 'prompt_sent':
        target?.prompts.push({ round: event.payload.round, preview: event.payload.preview, sequence: event.sequence });
        break;
      case 'thinking':
        target?.thinking.push(event.payload.summary);
        break;
      case 'tool_call':
        target?.tools.push({
          callId: event.payload.call_id,
          name: event.payload.name,
          sequence: event.sequence,
          result: null,
        });
        break;
      case 'tool_result': {
        answeredCalls.add(event.payload.call_id);
        const use = target?.tools.find((t) => t.callId === event.payload.call_id);
        if (use) use.result = event.payload.preview;
        break;
      }
      case 'budget_consumed':
        costUsd = event.payload.total_usd;
        limitUsd = event.payload.limit_usd ?? limitUsd;
        break;
      case 'budget_exceeded':
        budgetExceeded = true;
        costUsd = event.payload.total_usd;
        limitUsd = event.payload.limit_usd ?? limitUsd;
        break;
      case 'ask_user': {
        const { call_id: callId, question } = event.payload;
        questions.set(callId, { callId, question, role: event.agent_role, answered: false });
        break;
      }
      case 'approval_requested': {
        const p = event.payload;
        approvals.set(p.approval_id, {
          approvalId: p.approval_id,
          callId: p.call_id,
          action: p.action,
          reason: p.reason,
          role: event.agent_role,
          settled: false,
        });
        break;
      }
      case 'vercel_deploy_failed':
        deployFailure = `The deploy failed: ${event.payload.message}`;
        break;
      case 'vercel_deployed':
        deployFailure = null;
        break;
      case 'acquisition_unit_failed':
        if (event.payload.final)
          warnings.push(`${event.payload.capability}: ${event.payload.unit} failed (${event.payload.reason})`);
        break;
      case 'capability_acquisition_blocked':
        warnings.push(`${event.payload.capability} is blocked: ${event.payload.reason}`);
        break;
      case 'file_created':
        if (!files.includes(event.payload.path)) files.push(event.payload.path);
        break;
      case 'final':
        final = event;
        costUsd = event.payload.cost_usd ?? costUsd;
        for (const path of event.payload.created_files) if (!files.includes(path)) files.push(path);
        break;
      case 'error':
        failure = event;
        break;
      default:
        break;
    }
  }

  const terminal = final !== null || failure !== null;
  for (const q of questions.values()) q.answered = terminal || answeredCalls.has(q.callId);
  for (const a of approvals.values()) a.settled = terminal || (a.callId !== null && answeredCalls.has(a.callId));

  const fallbacks: Fallback[] = [];
  for (const line of [...fallbackLines.values()].sort((a, b) => a.sequence - b.sequence)) {
    const same = fallbacks.find((f) => f.text === line.text);
    if (!same) fallbacks.push({ roles: [line.role], sequence: line.sequence, text: line.text, demo: line.demo });
    else if (!same.roles.includes(line.role)) same.roles.push(line.role);
  }

  const cancelled = failure?.payload.code === 'cancelled';
  // Runs still open when the job ended: by the terminal event, else by the job row, which can say the job ended a
  // moment before that event reaches the stream (a cancel is recorded first).
  const closedAs: RunState | null = terminal
    ? cancelled
      ? 'cancelled'
      : 'interrupted'
    : rowEnded
      ? rowEnded === 'cancelled'
        ? 'cancelled'
        : 'interrupted'
      : null;
  const ordered = [...runs.values()].sort((a, b) => startOrder.get(a.key)! - startOrder.get(b.key)!);
  for (const r of ordered) {
    if (r.finishedAt) r.state = r.ok === false ? 'failed' : 'ok';
    else if (closedAs) r.state = closedAs;
    else r.state = r.startedAt ? 'running' : 'routed';
  }
  // A level whose failure the job survived (a retry or a fallback took over) is a warning once the job completes.
  if (final) {
    for (const r of ordered)
      if (r.state === 'failed' && r.kind === 'level') warnings.push(`${r.role} ${r.label || 'run'} failed`);
  }
  if (deployFailure) warnings.unshift(deployFailure);

  let ending: Ending | null = null;
  if (final) {
    const summary = final.payload.summary || final.payload.agent_message;
    ending =
      warnings.length > 0 ? { kind: 'completed_with_warnings', summary, warnings } : { kind: 'completed', summary };
  } else if (failure) {
    ending = cancelled
      ? { kind: 'cancelled', message: failure.payload.message }
      : { kind: 'failed', code: failure.payload.code || 'error', message: failure.payload.message };
  }

  const finalPayload = final?.payload;
  const summed = ordered.reduce<Tokens | null>((sum, r) => {
    if (!r.tokens) return sum;
    const s = sum ?? emptyTokens();
    return {
      prompt: s.prompt + r.tokens.prompt,
      completion: s.completion + r.tokens.completion,
      reasoning: s.reasoning + r.tokens.reasoning,
    };
  }, null);
  // `final` carries the job's totals (across chained scenarios); until it arrives, the finished runs' sum.
  const tokens =
    finalPayload && finalPayload.prompt_tokens !== undefined
      ? {
          prompt: finalPayload.prompt_tokens,
          completion: finalPayload.completion_tokens ?? 0,
          reasoning: finalPayload.reasoning_tokens ?? 0,
        }
      : summed;

  // Levels in the order their first run started (L4 executors before the L3 verifier that checks them).
  const groups = new Map<string, LevelRun[]>();
  for (const r of ordered) {
    const level = levelOf(r.role);
    groups.set(level, [...(groups.get(level) ?? []), r]);
  }
  return {
    groups: [...groups.entries()].map(([level, list]) => ({ level, runs: list })),
    runs: ordered,
    retries,
    escalations,
    costUsd:
      costUsd ?? (ordered.some((r) => r.costUsd !== null) ? ordered.reduce((s, r) => s + (r.costUsd ?? 0), 0) : null),
    limitUsd,
    tokens,
    budgetExceeded,
    questions: [...questions.values()],
    approvals: [...approvals.values()],
    files,
    final,
    failure,
    ending,
    warnings,
    fallbacks,
    scenarios,
    levelOfEvent,
  };
}

export function totalTokens(tokens: Tokens | null): number | null {
  return tokens ? tokens.prompt + tokens.completion : null;
}

import type { AgentEvent } from '../schemas';

export interface Hop {
  fromModel: string;
  toModel: string;
  toProvider: string;
  reason: string;
}

export interface LevelRun {
  key: string;
  role: string;
  attempt: number;
  startedAt: string | null;
  finishedAt: string | null;
  ok: boolean | null;
  verdict: string | null;
  deltas: string[];
  durationMs: number | null;
  costUsd: number | null;
  /** What routing meant to use (`routing_decision`), and the model that actually answered (`level_finished`). */
  intended: { provider: string; model: string; displayName: string | null; tier: string | null } | null;
  answered: { provider: string; model: string } | null;
  deterministic: boolean;
  hops: Hop[];
  gate: { decision: string; to: string | null; deltas: string[] } | null;
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

export interface JobView {
  groups: LevelGroup[];
  retries: number;
  escalations: number;
  costUsd: number | null;
  limitUsd: number | null;
  budgetExceeded: boolean;
  questions: Question[];
  approvals: ApprovalAsk[];
  files: string[];
  final: AgentEvent | null;
  failure: AgentEvent | null;
  scenarios: string[];
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** `L4.executor` → `L4`; a role without a level prefix is grouped under its whole name. */
export function levelOf(role: string): string {
  const match = /^(L[1-4])\./.exec(role);
  return match ? match[1]! : role;
}

/** `<job_id>/<role>/<attempt>` → role and attempt (the level id is the child workflow id). */
function splitLevelId(levelId: string): { role: string; attempt: number } | null {
  const parts = levelId.split('/');
  if (parts.length < 3) return null;
  const attempt = Number(parts[parts.length - 1]);
  const role = parts[parts.length - 2]!;
  return Number.isInteger(attempt) ? { role, attempt } : null;
}

/** Everything the job page shows beside the timeline, folded from the events in sequence order. */
export function deriveJob(events: readonly AgentEvent[]): JobView {
  const runs = new Map<string, LevelRun>();
  const questions = new Map<string, Question>();
  const approvals = new Map<string, ApprovalAsk>();
  const answeredCalls = new Set<string>();
  const files: string[] = [];
  const scenarios: string[] = [];
  let retries = 0;
  let escalations = 0;
  let costUsd: number | null = null;
  let limitUsd: number | null = null;
  let budgetExceeded = false;
  let final: AgentEvent | null = null;
  let failure: AgentEvent | null = null;
  /** The sequence of each run's `level_started` (else of the first event naming it): runs are listed in run order. */
  const startOrder = new Map<string, number>();
  /** The sequence of the event being folded. */
  let current = 0;

  const run = (role: string, attempt: number): LevelRun => {
    const key = `${role}/${attempt}`;
    let found = runs.get(key);
    if (!found) {
      found = {
        key,
        role,
        attempt,
        startedAt: null,
        finishedAt: null,
        ok: null,
        verdict: null,
        deltas: [],
        durationMs: null,
        costUsd: null,
        intended: null,
        answered: null,
        deterministic: false,
        hops: [],
        gate: null,
      };
      runs.set(key, found);
      startOrder.set(key, current);
    }
    return found;
  };
  const byLevelId = (payload: Record<string, unknown>): LevelRun | null => {
    const id = str(payload.level_id);
    const parts = id ? splitLevelId(id) : null;
    return parts ? run(parts.role, parts.attempt) : null;
  };

  for (const event of events) {
    current = event.sequence;
    const p = event.payload;
    switch (event.kind) {
      case 'scenario_started': {
        const name = str(p.scenario);
        if (name) scenarios.push(name);
        break;
      }
      case 'level_started': {
        const target = byLevelId(p) ?? run(event.agent_role, num(p.attempt) ?? 1);
        target.startedAt = event.occurred_at;
        startOrder.set(target.key, event.sequence);
        break;
      }
      case 'routing_decision': {
        // The legacy job-level variant carries no level_id and must not be attributed to a level (spec).
        const target = byLevelId(p);
        if (target) {
          target.intended = {
            provider: str(p.provider) ?? '',
            model: str(p.model) ?? '',
            displayName: str(p.model_display_name),
            tier: str(p.tier),
          };
        }
        break;
      }
      case 'model_fallback': {
        const target = byLevelId(p);
        target?.hops.push({
          fromModel: str(p.from_model) ?? '?',
          toModel: str(p.to_model) ?? '?',
          toProvider: str(p.to_provider) ?? '?',
          reason: str(p.reason) ?? '',
        });
        break;
      }
      case 'level_finished': {
        const target = run(event.agent_role, num(p.attempt) ?? 1);
        target.finishedAt = event.occurred_at;
        target.ok = typeof p.ok === 'boolean' ? p.ok : null;
        target.durationMs = num(p.duration_ms);
        target.costUsd = num(p.cost_usd);
        target.verdict = str(p.verdict) ?? target.verdict;
        target.deterministic = p.deterministic === true;
        // Only levels that called a model name one; consumers must not default them (spec).
        const provider = str(p.provider);
        const model = str(p.model);
        target.answered = provider && model ? { provider, model } : null;
        break;
      }
      case 'verifier_finished': {
        const target = byLevelId(p);
        if (target) {
          target.verdict = str(p.verdict) ?? target.verdict;
          target.deltas = strings(p.deltas);
        }
        break;
      }
      case 'gate_decision': {
        const decision = str(p.decision) ?? '?';
        if (decision === 'retry') retries += 1;
        if (decision === 'escalate') escalations += 1;
        const target = byLevelId(p);
        if (target) target.gate = { decision, to: str(p.to), deltas: strings(p.deltas) };
        break;
      }
      case 'budget_consumed':
        costUsd = num(p.total_usd) ?? costUsd;
        limitUsd = num(p.limit_usd) ?? limitUsd;
        break;
      case 'budget_exceeded':
        budgetExceeded = true;
        costUsd = num(p.total_usd) ?? costUsd;
        limitUsd = num(p.limit_usd) ?? limitUsd;
        break;
      case 'ask_user': {
        const callId = str(p.call_id);
        if (callId)
          questions.set(callId, { callId, question: str(p.question) ?? '', role: event.agent_role, answered: false });
        break;
      }
      case 'approval_requested': {
        const approvalId = str(p.approval_id);
        if (approvalId) {
          approvals.set(approvalId, {
            approvalId,
            callId: str(p.call_id),
            action: str(p.action) ?? '',
            reason: str(p.reason) ?? '',
            role: event.agent_role,
            settled: false,
          });
        }
        break;
      }
      case 'tool_result': {
        const callId = str(p.call_id);
        if (callId) answeredCalls.add(callId);
        break;
      }
      case 'file_created': {
        const path = str(p.path);
        if (path && !files.includes(path)) files.push(path);
        break;
      }
      case 'final':
        final = event;
        costUsd = num(p.cost_usd) ?? costUsd;
        for (const path of strings(p.created_files)) if (!files.includes(path)) files.push(path);
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

  const groups = new Map<string, LevelRun[]>();
  for (const r of runs.values()) {
    const level = levelOf(r.role);
    groups.set(level, [...(groups.get(level) ?? []), r]);
  }
  return {
    groups: [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([level, list]) => ({
        level,
        // In the order they ran (an L2 roster is architect, tech lead, security lead, …; not alphabetical).
        runs: list.sort((a, b) => startOrder.get(a.key)! - startOrder.get(b.key)!),
      })),
    retries,
    escalations,
    costUsd,
    limitUsd,
    budgetExceeded,
    questions: [...questions.values()],
    approvals: [...approvals.values()],
    files,
    final,
    failure,
    scenarios,
  };
}

/** One line per event for the timeline; a kind this console does not know gets a generic row with its payload. */
export function describeEvent(event: AgentEvent): { title: string; detail: string; known: boolean } {
  const p = event.payload;
  const s = (key: string) => str(p[key]) ?? '';
  switch (event.kind) {
    case 'scenario_started':
      return { title: `Scenario ${s('scenario')} started`, detail: strings(p.levels).join(' → '), known: true };
    case 'scenario_finished':
      return { title: `Scenario ${s('scenario')} finished`, detail: '', known: true };
    case 'scenario_chained':
      return { title: `Chained ${s('from')} → ${s('to')}`, detail: '', known: true };
    case 'node_started':
    case 'node_finished':
      return {
        title: event.kind === 'node_started' ? 'Node started' : 'Node finished',
        detail: s('node_id'),
        known: true,
      };
    case 'level_started':
      return { title: `Level started (attempt ${num(p.attempt) ?? '?'})`, detail: s('level_id'), known: true };
    case 'level_finished': {
      const model = str(p.model) ? `answered by ${s('provider')}/${s('model')}` : 'no model call';
      const verdict = str(p.verdict) ? `, verdict ${s('verdict')}` : '';
      return {
        title: `Level finished ${p.ok === false ? '(failed)' : 'ok'}${verdict}`,
        detail: `${model}; ${s('output_preview')}`.trim(),
        known: true,
      };
    }
    case 'routing_decision':
      return {
        title: `Routed to ${str(p.model_display_name) ?? (s('model') || 'the first candidate')}`,
        detail: `${s('provider')} ${s('model')} tier ${s('tier')}`.trim(),
        known: true,
      };
    case 'model_fallback':
    case 'provider_fallback':
      return {
        title: `Fallback ${s('from_model')} → ${s('to_model')}`,
        detail: `${s('to_provider')}: ${s('reason')}`,
        known: true,
      };
    case 'agent_handoff':
      return { title: `Handoff ${s('from')} → ${s('to')}`, detail: '', known: true };
    case 'prompt_sent':
      return { title: `Prompt sent (round ${num(p.round) ?? '?'})`, detail: s('preview'), known: true };
    case 'thinking':
      return { title: 'Thinking', detail: s('summary'), known: true };
    case 'heartbeat':
      return {
        title: 'Still waiting for the model',
        detail: `${Math.round((num(p.waiting_ms) ?? 0) / 1000)} s`,
        known: true,
      };
    case 'tool_call':
      return { title: `Tool call ${s('name')}`, detail: s('call_id'), known: true };
    case 'tool_result':
      return { title: 'Tool result', detail: s('preview'), known: true };
    case 'file_created':
      return { title: `Wrote ${s('path')}`, detail: `${num(p.size_bytes) ?? '?'} bytes`, known: true };
    case 'verifier_started':
      return { title: 'Verification started', detail: s('level_id'), known: true };
    case 'verifier_finished':
      return { title: `Verifier: ${s('verdict')}`, detail: strings(p.deltas).join('; '), known: true };
    case 'gate_decision':
      return {
        title: `Gate: ${s('decision')}${str(p.to) ? ` → ${s('to')}` : ''}`,
        detail: strings(p.deltas).join('; '),
        known: true,
      };
    case 'budget_consumed':
      return { title: `Cost so far $${(num(p.total_usd) ?? 0).toFixed(4)}`, detail: s('level_id'), known: true };
    case 'budget_exceeded':
      return {
        title: 'Job budget exceeded',
        detail: `$${num(p.total_usd) ?? '?'} of $${num(p.limit_usd) ?? '?'}`,
        known: true,
      };
    case 'ask_user':
      return { title: 'Question for you', detail: s('question'), known: true };
    case 'approval_requested':
      return { title: `Approval requested: ${s('action')}`, detail: s('reason'), known: true };
    case 'prompt_appended':
      return { title: `Follow-up prompt ${s('prompt_id')} reached the job`, detail: s('preview'), known: true };
    case 'final':
      return { title: 'Finished', detail: s('summary') || s('agent_message'), known: true };
    case 'error':
      return {
        title: `Failed: ${s('code') || 'error'}`,
        detail: `${s('message')}${p.retryable === true ? ' (retryable)' : ''}`,
        known: true,
      };
    default:
      return { title: event.kind, detail: JSON.stringify(p).slice(0, 300), known: false };
  }
}

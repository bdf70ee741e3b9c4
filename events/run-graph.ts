/**
 * The run graph of a finished job: the level runs that actually happened, in the order they started, with their
 * attempts, verdicts, models, costs and timings, and the hand-offs between them (a plain hand-off, a verifier's retry
 * back to the executor, or an escalation to the level that issued the task). Built from the job's stored events
 * only, so it shows what ran even where that differs from the graph that was planned.
 */
import type { EventEnvelope } from './envelope';

export interface RunGraphLevel {
  /** `<job_id>/<role>/<attempt>`, the level's child workflow id in Temporal. */
  level_id: string;
  role: string;
  attempt: number;
  scenario: string | null;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  /** null when the level never finished (the job was cancelled or failed around it). */
  ok: boolean | null;
  verdict: string | null;
  deltas: string[];
  /** The model routing intended, and the one that answered (they differ after a fallback); null without an LLM. */
  intended_model: string | null;
  provider: string | null;
  model: string | null;
  cost_usd: number;
  deterministic: boolean;
}

export interface RunGraphEdge {
  from: string;
  to: string;
  kind: 'handoff' | 'retry' | 'escalate';
}

export interface RunGraph {
  job_id: string;
  workflow_id: string;
  status: 'completed' | 'failed' | 'cancelled' | 'unfinished';
  scenarios: string[];
  levels: RunGraphLevel[];
  edges: RunGraphEdge[];
  total_cost_usd: number;
  started_at: string | null;
  finished_at: string | null;
}

type Payload = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/**
 * Builds the run graph from a job's events in sequence order. `outcome` is how the job ended when the graph is built
 * just before its terminal event (the job archives it then, so it is there when a client sees `final`); a terminal
 * event among `events` wins over it.
 */
export function buildRunGraph(
  events: readonly EventEnvelope[],
  outcome?: { status: 'completed' | 'failed' | 'cancelled'; at: string },
): RunGraph {
  const first = events[0];
  const levels: RunGraphLevel[] = [];
  const byId = new Map<string, RunGraphLevel>();
  const edges: RunGraphEdge[] = [];
  const scenarios: string[] = [];
  let scenario: string | null = null;
  let pendingKind: RunGraphEdge['kind'] = 'handoff';
  let status: RunGraph['status'] = outcome?.status ?? 'unfinished';
  let finishedAt: string | null = outcome?.at ?? null;
  // level_finished carries the role and attempt, not the level id; the id is rebuilt the way the job names children.
  const levelOf = (event: EventEnvelope, payload: Payload): RunGraphLevel | undefined =>
    byId.get(text(payload.level_id) ?? `${event.job_id}/${event.agent_role}/${String(payload.attempt)}`);

  for (const event of events) {
    const payload = event.payload as Payload;
    switch (event.kind) {
      case 'scenario_started':
        scenario = text(payload.scenario);
        if (scenario) scenarios.push(scenario);
        break;
      case 'routing_decision': {
        const levelId = text(payload.level_id);
        if (levelId) byId.set(levelId, { ...newLevel(event, levelId, scenario), intended_model: modelName(payload) });
        break;
      }
      case 'level_started': {
        const levelId = text(payload.level_id)!;
        const level = byId.get(levelId) ?? newLevel(event, levelId, scenario);
        level.started_at = event.occurred_at;
        const previous = levels.at(-1);
        if (previous) edges.push({ from: previous.level_id, to: levelId, kind: pendingKind });
        pendingKind = 'handoff';
        byId.set(levelId, level);
        levels.push(level);
        break;
      }
      case 'verifier_finished': {
        const level = levelOf(event, payload);
        if (level && Array.isArray(payload.deltas)) level.deltas = payload.deltas.filter((d) => typeof d === 'string');
        break;
      }
      case 'level_finished': {
        const level = levelOf(event, payload);
        if (!level) break;
        level.finished_at = event.occurred_at;
        level.duration_ms = num(payload.duration_ms);
        level.ok = payload.ok === true;
        level.verdict = text(payload.verdict);
        level.provider = text(payload.provider);
        level.model = text(payload.model);
        level.cost_usd = num(payload.cost_usd) ?? 0;
        level.deterministic = payload.deterministic === true;
        break;
      }
      case 'gate_decision':
        if (payload.decision === 'retry') pendingKind = 'retry';
        if (payload.decision === 'escalate') pendingKind = 'escalate';
        break;
      case 'final':
        status = 'completed';
        finishedAt = event.occurred_at;
        break;
      case 'error':
        status = payload.code === 'cancelled' ? 'cancelled' : 'failed';
        finishedAt = event.occurred_at;
        break;
    }
  }
  return {
    job_id: first?.job_id ?? '',
    workflow_id: first?.workflow_id ?? '',
    status,
    scenarios,
    levels,
    edges,
    total_cost_usd: levels.reduce((sum, level) => sum + level.cost_usd, 0),
    started_at: first?.occurred_at ?? null,
    finished_at: finishedAt,
  };
}

function newLevel(event: EventEnvelope, levelId: string, scenario: string | null): RunGraphLevel {
  const [, role = event.agent_role, attempt = '1'] = /^.*\/(L[1-4]\.[a-z0-9_]+)\/(\d+)$/.exec(levelId) ?? [];
  return {
    level_id: levelId,
    role,
    attempt: Number(attempt),
    scenario,
    started_at: event.occurred_at,
    finished_at: null,
    duration_ms: null,
    ok: null,
    verdict: null,
    deltas: [],
    intended_model: null,
    provider: null,
    model: null,
    cost_usd: 0,
    deterministic: false,
  };
}

function modelName(payload: Payload): string | null {
  const provider = text(payload.provider);
  const model = text(payload.model);
  return provider && model ? `${provider}/${model}` : null;
}

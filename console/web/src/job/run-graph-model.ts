import type { EventEnvelope } from '../../../../events/envelope';
import { buildRunGraph, type RunGraphEdge, type RunGraphLevel } from '../../../../events/run-graph';

/**
 * The run graph a person reads: every step of a job as it ran, in the order it started, with how each step led to the
 * next. The level runs, their attempts and the hand-off kinds (retry, escalation) come from the server's own
 * `buildRunGraph` (events/run-graph.ts, the one the workflow page's archived graph is built by); this adds what a
 * product build runs besides the scenario's levels (its build checks), each step's state while the job still runs,
 * and the boundaries between chained scenarios. Pure: the job page rebuilds it from the events on every batch.
 */

export type RunStepKind = 'prelude' | 'level' | 'build_check' | 'release';
/**
 * `interrupted`: the job ended (or the graph was archived) while the step was still open; `cancelled`: it ended so
 * because someone cancelled the job (the level tree's word for the same step).
 */
export type RunStepState = 'running' | 'ok' | 'failed' | 'interrupted' | 'cancelled';
export type RunLinkKind = RunGraphEdge['kind'] | 'chain';

export interface RunStep {
  /** The step's `level_id`: what `?step=` on the job page opens. */
  id: string;
  kind: RunStepKind;
  role: string;
  /** 0 for L1 … 3 for L4: how far down the hierarchy the step ran. */
  depth: number;
  scenario: string | null;
  /** Which run of this role in its scenario this is (1 for the first). */
  run: number;
  state: RunStepState;
  verdict: string | null;
  durationMs: number | null;
  costUsd: number;
  /** The model that answered (provider/model), when one did. */
  model: string | null;
}

export interface RunLink {
  from: string;
  to: string;
  kind: RunLinkKind;
}

export interface RunGraphModel {
  steps: RunStep[];
  links: RunLink[];
  /** The scenarios in the order they ran (a chained scenario follows the one that chained it). */
  scenarios: string[];
  /** The job has ended (a `final` or an `error` event); open steps are then interrupted. */
  ended: boolean;
}

/** What the model needs of an event: the fields the job page's events and the server's envelopes share. */
export interface RunEvent {
  job_id: string;
  sequence: number;
  occurred_at: string;
  kind: string;
  agent_role: string;
  payload: Record<string, unknown>;
}

const PRELUDE = /\/prelude$/;
const RELEASE = /\/release$/;

function depthOf(role: string): number {
  const level = /^L([1-4])\./.exec(role)?.[1];
  return level ? Number(level) - 1 : 0;
}

function kindOf(levelId: string): RunStepKind {
  if (PRELUDE.test(levelId)) return 'prelude';
  if (RELEASE.test(levelId)) return 'release';
  return 'level';
}

/** How a step that has not finished stands: running, or (once the job has ended) interrupted or cancelled. */
type OpenState = Extract<RunStepState, 'running' | 'interrupted' | 'cancelled'>;

function stateOf(ok: boolean | null, open: OpenState): RunStepState {
  if (ok === true) return 'ok';
  if (ok === false) return 'failed';
  return open;
}

/** What a step is built from: a level of the server's run graph (live, or as archived and served). */
type LevelFacts = Pick<
  RunGraphLevel,
  'level_id' | 'role' | 'scenario' | 'ok' | 'verdict' | 'duration_ms' | 'cost_usd' | 'provider' | 'model'
>;

function modelOf(level: LevelFacts): string | null {
  if (level.model) return level.provider ? `${level.provider}/${level.model}` : level.model;
  return null;
}

function stepOf(level: LevelFacts, open: OpenState): RunStep {
  return {
    id: level.level_id,
    kind: kindOf(level.level_id),
    role: level.role,
    depth: depthOf(level.role),
    scenario: level.scenario,
    run: 1,
    state: stateOf(level.ok, open),
    verdict: level.verdict,
    durationMs: level.duration_ms,
    costUsd: level.cost_usd,
    model: modelOf(level),
  };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** Numbers each role's runs of a kind within its scenario, and links each step to the one after it. */
function finish(
  ordered: RunStep[],
  edges: readonly RunGraphEdge[],
  scenarios: string[],
  ended: boolean,
): RunGraphModel {
  const seen = new Map<string, number>();
  for (const step of ordered) {
    // Counted per kind: a team lead's prelude is not its first run, nor a release step the release manager's.
    const key = `${step.scenario ?? ''}|${step.role}|${step.kind}`;
    step.run = (seen.get(key) ?? 0) + 1;
    seen.set(key, step.run);
  }
  const edgeKind = new Map(edges.map((e) => [`${e.from}>${e.to}`, e.kind]));
  const links: RunLink[] = [];
  for (let i = 1; i < ordered.length; i++) {
    const from = ordered[i - 1]!;
    const to = ordered[i]!;
    let kind: RunLinkKind = edgeKind.get(`${from.id}>${to.id}`) ?? 'handoff';
    if (from.scenario !== to.scenario && to.scenario !== null && from.scenario !== null) kind = 'chain';
    // A failed build goes back to the executor like a failed verification (docs/product-builds.md).
    else if (from.kind === 'build_check' && from.state === 'failed') kind = 'retry';
    links.push({ from: from.id, to: to.id, kind });
  }
  return { steps: ordered, links, scenarios, ended };
}

/** The run graph of the events seen so far (in any order; sequence decides). */
/**
 * Where the open steps of a job that ended stand. The job row can say the job ended a moment before its terminal event
 * reaches the stream (a cancel is recorded first), so `rowEnded` (the row's status once terminal) counts as well.
 */
function openStateOf(sorted: readonly RunEvent[], rowEnded: string | null): OpenState {
  const terminal = sorted.find((e) => e.kind === 'final' || e.kind === 'error');
  if (terminal) return terminal.kind === 'error' && terminal.payload.code === 'cancelled' ? 'cancelled' : 'interrupted';
  if (rowEnded) return rowEnded === 'cancelled' ? 'cancelled' : 'interrupted';
  return 'running';
}

export function runGraphFromEvents(events: readonly RunEvent[], rowEnded: string | null = null): RunGraphModel {
  const sorted = [...events].sort((a, b) => a.sequence - b.sequence);
  const envelopes: EventEnvelope[] = sorted.map((e) => ({
    schema_version: '1',
    job_id: e.job_id,
    workflow_id: '',
    prompt_id: '',
    agent_role: e.agent_role,
    sequence: e.sequence,
    occurred_at: e.occurred_at,
    kind: e.kind,
    payload: e.payload,
  }));
  const graph = buildRunGraph(envelopes);
  const open = openStateOf(sorted, rowEnded);
  const ended = open !== 'running';

  // Where each step starts in the event order, so the build checks fall between the levels they ran between.
  const startedAt = new Map<string, number>();
  const checks = new Map<string, RunStep & { at: number }>();
  for (const event of sorted) {
    const levelId = text(event.payload.level_id);
    if (!levelId) continue;
    if (event.kind === 'level_started' && !startedAt.has(levelId)) startedAt.set(levelId, event.sequence);
    if (event.kind === 'build_verify_started') {
      checks.set(levelId, {
        id: levelId,
        kind: 'build_check',
        role: event.agent_role,
        depth: depthOf(event.agent_role),
        scenario: null,
        run: 1,
        state: open,
        verdict: null,
        durationMs: null,
        costUsd: 0,
        model: null,
        at: event.sequence,
      });
    }
    const check = checks.get(levelId);
    if (check && (event.kind === 'build_verify_passed' || event.kind === 'build_verify_failed')) {
      check.state = event.kind === 'build_verify_passed' ? 'ok' : 'failed';
      check.verdict =
        event.kind === 'build_verify_passed' ? 'build passed' : `${text(event.payload.step) ?? 'build'} failed`;
      check.durationMs = num(event.payload.duration_ms);
    }
  }

  const levels = graph.levels.map((level) => ({ step: stepOf(level, open), at: startedAt.get(level.level_id) ?? 0 }));
  const all = [...levels, ...[...checks.values()].map((check) => ({ step: check, at: check.at }))].sort(
    (a, b) => a.at - b.at,
  );
  // A build check belongs to the scenario of the step before it (the executor whose files it built).
  let scenario: string | null = null;
  const ordered = all.map(({ step }) => {
    if (step.kind === 'build_check') {
      const { at: _at, ...rest } = step as RunStep & { at?: number };
      return { ...rest, scenario };
    }
    scenario = step.scenario;
    return step;
  });
  return finish(ordered, graph.edges, graph.scenarios, ended);
}

/** The archived run graph of a finished job (GET /v1/workflows/:id/run-graph) as the same model. */
export function runGraphFromArchive(graph: {
  scenarios: readonly string[];
  edges: readonly { from: string; to: string; kind: string }[];
  levels: readonly LevelFacts[];
}): RunGraphModel {
  return finish(
    graph.levels.map((level) => stepOf(level, 'interrupted')),
    graph.edges.filter((e): e is RunGraphEdge => ['handoff', 'retry', 'escalate'].includes(e.kind)),
    [...graph.scenarios],
    true,
  );
}

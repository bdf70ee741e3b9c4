/**
 * A workflow's editable agent graph: the scenario it runs, as nodes (agents, one per role, each carrying its
 * scenario level settings) and edges (hand-offs, each with an optional edge prompt). Pure: the API edits a graph
 * with `applyGraphEdit`, and a job runs `graphToScenario` of it, so the rules live in one place.
 *
 * A job runs the agents in a topological order of the edges, ties broken by the order the agents were added in; the
 * graph must therefore stay acyclic. A verifier right after an executor in that order is the usual verify loop.
 * An edge prompt is the sender's note to the receiver: it is put in front of the receiver's brief.
 */
import { z } from 'zod';
import { Refusal, type RefusalKind } from '../refusals/refusal';
import type { Scenario, ScenarioLevel } from './types';
import { checkScenario, levelSchema, productSchema, type ScenarioProduct } from './schema';

export interface GraphEdge {
  from: string;
  to: string;
  prompt?: string;
}

export interface AgentGraph {
  /** The scenario the graph was seeded from; its `chain` still follows the graph. */
  scenario: string;
  agents: ScenarioLevel[];
  edges: GraphEdge[];
  chain?: { scenario: string };
  /** The scenario's product-build switches: an edited product scenario still builds, gates and deploys. */
  product?: ScenarioProduct;
}

/** A stored graph, re-read at the database boundary. */
export const agentGraphSchema = z.strictObject({
  scenario: z.string(),
  agents: z.array(levelSchema),
  edges: z.array(z.strictObject({ from: z.string(), to: z.string(), prompt: z.string().optional() })),
  chain: z.strictObject({ scenario: z.string() }).optional(),
  product: productSchema.optional(),
});

export type GraphEdit =
  | { op: 'put_agent'; agent: ScenarioLevel }
  | { op: 'add_edge'; from: string; to: string; prompt?: string }
  | { op: 'delete_edge'; from: string; to: string }
  | { op: 'set_edge_prompt'; from: string; to: string; prompt: string | null };

/** An edit the graph refuses, by kind (invalid, not found, conflict) and code; the HTTP layer maps the kind. */
export class GraphEditError extends Refusal {
  override name = 'GraphEditError';

  constructor(kind: RefusalKind, code: string, message: string) {
    super(kind, code, message);
  }
}

/** The graph of a scenario file as written: its levels in order, each handing off to the next. */
export function graphFromScenario(scenario: Scenario): AgentGraph {
  const agents = scenario.levels.map((level) => ({ ...level }));
  const edges = agents.slice(1).map((level, index) => ({ from: agents[index]!.role, to: level.role }));
  return {
    scenario: scenario.name,
    agents,
    edges,
    ...(scenario.chain ? { chain: { ...scenario.chain } } : {}),
    ...(scenario.product ? { product: structuredClone(scenario.product) } : {}),
  };
}

/**
 * The graph after one edit, or a GraphEditError: an unknown agent is invalid, a missing edge not found, a duplicate
 * edge or a cycle a conflict, and the result is invalid (`invalid_graph`) when the result would not run as a scenario (e.g. file tools on a planning level, or a
 * verifier ordered before every executor). The input graph is not modified.
 */
export function applyGraphEdit(graph: AgentGraph, edit: GraphEdit): AgentGraph {
  const next: AgentGraph = { ...graph, agents: [...graph.agents], edges: graph.edges.map((edge) => ({ ...edge })) };
  switch (edit.op) {
    case 'put_agent': {
      const index = next.agents.findIndex((agent) => agent.role === edit.agent.role);
      if (index >= 0) next.agents[index] = edit.agent;
      else next.agents.push(edit.agent);
      break;
    }
    case 'add_edge': {
      requireAgents(next, edit.from, edit.to);
      if (findEdge(next, edit.from, edit.to) >= 0) {
        throw new GraphEditError('conflict', 'duplicate_edge', `the edge ${edit.from} → ${edit.to} already exists`);
      }
      const loop = pathBetween(next, edit.to, edit.from);
      if (loop) {
        throw new GraphEditError(
          'conflict',
          'cycle',
          `the edge ${edit.from} → ${edit.to} would close the cycle ${[edit.from, ...loop].join(' → ')}; the graph must stay acyclic`,
        );
      }
      next.edges.push({ from: edit.from, to: edit.to, ...(edit.prompt ? { prompt: edit.prompt } : {}) });
      break;
    }
    case 'delete_edge': {
      next.edges.splice(existingEdge(next, edit.from, edit.to), 1);
      break;
    }
    case 'set_edge_prompt': {
      const index = existingEdge(next, edit.from, edit.to);
      const { prompt: _previous, ...edge } = next.edges[index]!;
      next.edges[index] = edit.prompt ? { ...edge, prompt: edit.prompt } : edge;
      break;
    }
  }
  const checked = checkScenario(scenarioShape(next, next.scenario));
  if (!checked.ok) {
    throw new GraphEditError(
      'invalid',
      'invalid_graph',
      `the edited graph would not run: ${checked.problems.join('; ')}`,
    );
  }
  return next;
}

/** The roles in the order a job runs them: topological over the edges, ties by the order agents were added in. */
export function runOrder(graph: AgentGraph): string[] {
  const incoming = new Map(graph.agents.map((agent) => [agent.role, 0]));
  for (const edge of graph.edges) incoming.set(edge.to, (incoming.get(edge.to) ?? 0) + 1);
  const order: string[] = [];
  const remaining = graph.agents.map((agent) => agent.role);
  while (remaining.length > 0) {
    const index = remaining.findIndex((role) => incoming.get(role) === 0);
    // Unreachable for a graph built by applyGraphEdit, which refuses cycles; a stored graph is re-checked on read.
    if (index < 0) throw new GraphEditError('conflict', 'cycle', `the graph has a cycle among ${remaining.join(', ')}`);
    const [role] = remaining.splice(index, 1) as [string];
    order.push(role);
    for (const edge of graph.edges) {
      if (edge.from === role) incoming.set(edge.to, incoming.get(edge.to)! - 1);
    }
  }
  return order;
}

/**
 * The scenario a job of this workflow runs: the agents in run order, each brief preceded by the prompts of the edges
 * into it. Named `<workflow id>-graph` so its events show that an edited graph, not the file, ran.
 */
export function graphToScenario(graph: AgentGraph, workflowId: string): Scenario {
  const checked = checkScenario(scenarioShape(graph, `${workflowId}-graph`));
  if (!checked.ok) {
    throw new GraphEditError(
      'invalid',
      'invalid_graph',
      `the stored graph would not run: ${checked.problems.join('; ')}`,
    );
  }
  return checked.value;
}

function scenarioShape(graph: AgentGraph, name: string): Scenario {
  const byRole = new Map(graph.agents.map((agent) => [agent.role, agent]));
  const levels = runOrder(graph).map((role) => {
    const agent = byRole.get(role)!;
    const notes = graph.edges
      .filter((edge) => edge.to === role && edge.prompt)
      .map((edge) => `Note from ${edge.from}: ${edge.prompt}\n\n`);
    return notes.length > 0 ? { ...agent, prompt: `${notes.join('')}${agent.prompt}` } : agent;
  });
  return {
    name,
    description: `The ${graph.scenario} scenario as edited for this workflow.`,
    levels,
    ...(graph.chain && graph.chain.scenario !== name ? { chain: graph.chain } : {}),
    ...(graph.product ? { product: graph.product } : {}),
  };
}

function requireAgents(graph: AgentGraph, ...roles: string[]): void {
  for (const role of roles) {
    if (!graph.agents.some((agent) => agent.role === role)) {
      const known = graph.agents.map((agent) => agent.role).join(', ');
      throw new GraphEditError('invalid', 'unknown_agent', `no agent ${role} in this graph (agents: ${known})`);
    }
  }
}

function findEdge(graph: AgentGraph, from: string, to: string): number {
  return graph.edges.findIndex((edge) => edge.from === from && edge.to === to);
}

function existingEdge(graph: AgentGraph, from: string, to: string): number {
  requireAgents(graph, from, to);
  const index = findEdge(graph, from, to);
  if (index < 0) throw new GraphEditError('not_found', 'edge_not_found', `there is no edge ${from} → ${to}`);
  return index;
}

/** A path of roles from `start` to `goal` along the edges (both included), or undefined when there is none. */
function pathBetween(graph: AgentGraph, start: string, goal: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (role: string): string[] | undefined => {
    if (role === goal) return [role];
    if (seen.has(role)) return undefined;
    seen.add(role);
    for (const edge of graph.edges) {
      if (edge.from !== role) continue;
      const rest = walk(edge.to);
      if (rest) return [role, ...rest];
    }
    return undefined;
  };
  return walk(start);
}

import {
  agentGraphSchema,
  applyGraphEdit,
  graphFromScenario,
  graphToScenario,
  runOrder,
  type AgentGraph,
  type GraphEdit,
} from './graph';
import { loadScenario } from './load';
import { httpAnswer } from '../http/errors';

let build: AgentGraph;

beforeAll(async () => {
  build = graphFromScenario(await loadScenario('build'));
});

function refusal(graph: AgentGraph, edit: GraphEdit): { status: number; code: string; message: string } {
  try {
    applyGraphEdit(graph, edit);
  } catch (err) {
    // The refusal names its kind; the status is what the API answers for it (http/errors.ts).
    const answer = httpAnswer(err)!;
    return { status: answer.status, code: answer.code, message: answer.message };
  }
  throw new Error('the edit was accepted');
}

describe('graphFromScenario', () => {
  it('makes one agent per level and chains them in file order, keeping the chain', () => {
    expect(build.agents.map((a) => a.role)).toEqual(['L1.team_lead', 'L2.architect', 'L4.executor', 'L3.verifier']);
    expect(build.edges).toEqual([
      { from: 'L1.team_lead', to: 'L2.architect' },
      { from: 'L2.architect', to: 'L4.executor' },
      { from: 'L4.executor', to: 'L3.verifier' },
    ]);
    expect(build.chain).toEqual({ scenario: 'review' });
  });

  it('round-trips: the unedited graph runs the same levels as the file', async () => {
    const scenario = graphToScenario(build, 'wf-7');
    expect(scenario.name).toBe('wf-7-graph');
    expect(scenario.levels).toEqual((await loadScenario('build')).levels);
    expect(scenario.chain).toEqual({ scenario: 'review' });
  });
});

describe("a product scenario's graph", () => {
  it('keeps the product block through an edit, the stored JSON and back to the scenario a job runs', async () => {
    const file = await loadScenario('product-confirmed');
    const seeded = graphFromScenario(file);
    const edited = applyGraphEdit(seeded, {
      op: 'put_agent',
      agent: { role: 'L2.security_lead', prompt: 'Review for risks.\n\nRequest:\n{{request}}' },
    });
    // What the graph store writes and reads back.
    const stored = agentGraphSchema.parse(JSON.parse(JSON.stringify(edited)));
    const scenario = graphToScenario(stored, 'wf-9');
    expect(scenario.product).toEqual(file.product);
    expect(scenario.product?.confirm).toEqual(['template', 'design']);
    expect(scenario.levels.map((l) => l.role)).toContain('L2.security_lead');
  });

  it('has no product block when the scenario has none', () => {
    expect(graphToScenario(build, 'wf-10').product).toBeUndefined();
  });
});

describe('applyGraphEdit', () => {
  const securityLead = { role: 'L2.security_lead', prompt: 'Review the plan for risks.\n\nRequest:\n{{request}}' };

  it('adds an agent after the others and runs it where its edges put it', () => {
    let graph = applyGraphEdit(build, { op: 'put_agent', agent: securityLead });
    expect(runOrder(graph)).toEqual(['L1.team_lead', 'L2.architect', 'L4.executor', 'L3.verifier', 'L2.security_lead']);
    graph = applyGraphEdit(graph, { op: 'add_edge', from: 'L2.security_lead', to: 'L4.executor' });
    expect(runOrder(graph)).toEqual(['L1.team_lead', 'L2.architect', 'L2.security_lead', 'L4.executor', 'L3.verifier']);
  });

  it('replaces the settings of an existing agent in place', () => {
    const graph = applyGraphEdit(build, {
      op: 'put_agent',
      agent: { role: 'L2.architect', prompt: 'Write one task.\n\nRequest:\n{{request}}', effort: 'high' },
    });
    expect(graph.agents[1]).toEqual({
      role: 'L2.architect',
      prompt: expect.stringContaining('one task') as string,
      effort: 'high',
    });
    expect(runOrder(graph)).toEqual(runOrder(build));
    expect(build.agents[1]!.effort).toBeUndefined();
  });

  it('puts edge prompts in front of the receiving brief and clears them', () => {
    let graph = applyGraphEdit(build, {
      op: 'set_edge_prompt',
      from: 'L1.team_lead',
      to: 'L2.architect',
      prompt: 'Keep it to one file.',
    });
    const architect = graphToScenario(graph, 'wf-1').levels[1]!;
    expect(architect.prompt.startsWith('Note from L1.team_lead: Keep it to one file.\n\nYou are the architect')).toBe(
      true,
    );
    graph = applyGraphEdit(graph, { op: 'set_edge_prompt', from: 'L1.team_lead', to: 'L2.architect', prompt: null });
    expect(graph.edges[0]).toEqual({ from: 'L1.team_lead', to: 'L2.architect' });
  });

  it('deletes an edge', () => {
    const graph = applyGraphEdit(build, { op: 'delete_edge', from: 'L2.architect', to: 'L4.executor' });
    expect(graph.edges).toHaveLength(2);
    expect(runOrder(graph)).toEqual(runOrder(build));
  });

  it.each<[string, GraphEdit, number, string]>([
    ['an edge from an unknown agent', { op: 'add_edge', from: 'L2.ghost', to: 'L4.executor' }, 400, 'unknown_agent'],
    ['an edge to an unknown agent', { op: 'add_edge', from: 'L1.team_lead', to: 'L9.x' }, 400, 'unknown_agent'],
    ['a duplicate edge', { op: 'add_edge', from: 'L1.team_lead', to: 'L2.architect' }, 409, 'duplicate_edge'],
    ['a self loop', { op: 'add_edge', from: 'L4.executor', to: 'L4.executor' }, 409, 'cycle'],
    ['a back edge', { op: 'add_edge', from: 'L3.verifier', to: 'L1.team_lead' }, 409, 'cycle'],
    ['deleting a missing edge', { op: 'delete_edge', from: 'L1.team_lead', to: 'L3.verifier' }, 404, 'edge_not_found'],
    [
      'prompting a missing edge',
      { op: 'set_edge_prompt', from: 'L3.verifier', to: 'L4.executor', prompt: 'x' },
      404,
      'edge_not_found',
    ],
    [
      'file tools on a planning level',
      { op: 'put_agent', agent: { role: 'L2.architect', prompt: 'p', tools: ['write_file'] } },
      400,
      'invalid_graph',
    ],
  ])('refuses %s', (_name, edit, status, code) => {
    expect(refusal(build, edit)).toMatchObject({ status, code });
  });

  it('names the whole cycle it refuses', () => {
    expect(refusal(build, { op: 'add_edge', from: 'L3.verifier', to: 'L2.architect' }).message).toContain(
      'L3.verifier → L2.architect → L4.executor → L3.verifier',
    );
  });

  it('refuses an order that puts a verifier before every executor', () => {
    const noExecutorFirst = applyGraphEdit(build, { op: 'delete_edge', from: 'L4.executor', to: 'L3.verifier' });
    // L3 now has no incoming edge, but L4 still comes first by insertion order; an edge L3 → L4 would flip them.
    expect(refusal(noExecutorFirst, { op: 'add_edge', from: 'L3.verifier', to: 'L4.executor' })).toMatchObject({
      status: 400,
      code: 'invalid_graph',
    });
  });
});

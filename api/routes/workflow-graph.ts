import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findActiveJob, findJob, findLatestFinishedJob, isTerminalStatus } from '../../db/jobs';
import { archiveRunGraph, findRunGraph } from '../../events/run-graph-store';
import { editWorkflowGraph, loadWorkflowGraph, type StoredGraph } from '../../scenarios/graph-store';
import { graphFromScenario, runOrder, type AgentGraph, type GraphEdit } from '../../scenarios/graph';
import { ConfigFileError } from '../../config/config-file';
import { loadScenario } from '../../scenarios/load';
import { levelSchema, productSchema } from '../../scenarios/schema';
import type { ApiDeps } from '../deps';
import { Conflict, NotFound } from '../../refusals/refusal';
import { principalOf } from '../plugins/principal';
import { visibleWorkflowRef } from '../../jobs/submit';
import { ErrorSchema } from './chat';

const Params = z.object({ id: z.string().min(1).max(100) });
const role = z.string().min(1).max(100);
const edgePrompt = z.string().trim().min(1).max(4000);
/** Optional optimistic check: the graph version the client last read. */
const version = z.number().int().min(0).optional();

const AgentBody = z.strictObject({ agent: levelSchema, version });
const EdgeBody = z.strictObject({ from: role, to: role, prompt: edgePrompt.optional(), version });
const EdgeRefBody = z.strictObject({ from: role, to: role, version });
const EdgePromptBody = z.strictObject({ from: role, to: role, prompt: edgePrompt.nullable(), version });

const GraphSchema = z.object({
  workflow_id: z.string(),
  /** 0 until the first edit: the graph is then the scenario file's. */
  version: z.number(),
  scenario: z.string(),
  agents: z.array(levelSchema),
  edges: z.array(z.object({ from: z.string(), to: z.string(), prompt: z.string().optional() })),
  /** The order the next job runs the agents in. */
  order: z.array(z.string()),
  chain: z.object({ scenario: z.string() }).nullable(),
  /** The scenario's `product:` block (docs/product-builds.md), kept through every edit; null for other scenarios. */
  product: productSchema.nullable(),
});

const RunLevelSchema = z.object({
  level_id: z.string(),
  role: z.string(),
  attempt: z.number(),
  scenario: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().nullable(),
  ok: z.boolean().nullable(),
  verdict: z.string().nullable(),
  deltas: z.array(z.string()),
  intended_model: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  cost_usd: z.number(),
  deterministic: z.boolean(),
});

const RunGraphSchema = z.object({
  job_id: z.string(),
  workflow_id: z.string(),
  status: z.enum(['completed', 'failed', 'cancelled', 'unfinished']),
  scenarios: z.array(z.string()),
  levels: z.array(RunLevelSchema),
  edges: z.array(z.object({ from: z.string(), to: z.string(), kind: z.enum(['handoff', 'retry', 'escalate']) })),
  total_cost_usd: z.number(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

function view(workflowId: string, stored: StoredGraph): z.infer<typeof GraphSchema> {
  const { graph } = stored;
  return {
    workflow_id: workflowId,
    version: stored.version,
    scenario: graph.scenario,
    agents: graph.agents,
    edges: graph.edges,
    order: runOrder(graph),
    chain: graph.chain ?? null,
    product: graph.product ?? null,
  };
}

async function seedGraph(scenario: string): Promise<AgentGraph> {
  try {
    return graphFromScenario(await loadScenario(scenario));
  } catch (err) {
    // The workflow's scenario file was removed or broke after the workflow was created.
    if (err instanceof ConfigFileError) throw new Conflict('scenario_unavailable', err.publicMessage());
    throw err;
  }
}

/** The workflow's agent graph (GET, and the four edits) and the archived run graph of its finished jobs. */
export function workflowGraphRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema };

    app.get(
      '/v1/workflows/:id/graph',
      { schema: { params: Params, response: { 200: GraphSchema, ...errors } } },
      async (request) => {
        const workflow = await visibleWorkflowRef(deps, principalOf(request), request.params.id);
        const stored = (await loadWorkflowGraph(deps.pool, workflow.workflow_id)) ?? {
          graph: await seedGraph(workflow.scenario),
          version: 0,
        };
        return view(workflow.workflow_id, stored);
      },
    );

    const edit = <B extends { version?: number }>(path: string, body: z.ZodType<B>, toEdit: (body: B) => GraphEdit) =>
      app.post(
        `/v1/workflows/:id/${path}`,
        { schema: { params: Params, body, response: { 200: GraphSchema, ...errors } } },
        async (request) => {
          const workflow = await visibleWorkflowRef(deps, principalOf(request), request.params.id);
          const requested = request.body as B;
          const stored = await editWorkflowGraph(
            deps.pool,
            workflow.workflow_id,
            () => seedGraph(workflow.scenario),
            toEdit(requested),
            requested.version,
          );
          return view(workflow.workflow_id, stored);
        },
      );

    edit('agents', AgentBody, (body) => ({ op: 'put_agent', agent: body.agent }));
    edit('edges', EdgeBody, (body) => ({ op: 'add_edge', from: body.from, to: body.to, prompt: body.prompt }));
    edit('edges/delete', EdgeRefBody, (body) => ({ op: 'delete_edge', from: body.from, to: body.to }));
    edit('edge-prompt', EdgePromptBody, (body) => ({
      op: 'set_edge_prompt',
      from: body.from,
      to: body.to,
      prompt: body.prompt,
    }));

    app.get(
      '/v1/workflows/:id/run-graph',
      {
        schema: {
          params: Params,
          querystring: z.object({ job_id: z.string().min(1).max(100).optional() }),
          response: { 200: RunGraphSchema, 404: ErrorSchema, 409: ErrorSchema },
        },
      },
      async (request) => {
        const workflow = await visibleWorkflowRef(deps, principalOf(request), request.params.id);
        const jobId = request.query.job_id ?? (await findLatestFinishedJob(deps.pool, workflow.workflow_id))?.job_id;
        if (!jobId) {
          if (await findActiveJob(deps.pool, workflow.workflow_id)) {
            throw new Conflict('workflow_running', `workflow ${workflow.workflow_id} has not finished a job yet`);
          }
          throw new NotFound(`run graph of ${workflow.workflow_id}`);
        }
        const job = await findJob(deps.pool, jobId);
        if (!job || job.workflow_id !== workflow.workflow_id)
          throw new NotFound(`job ${jobId} of ${workflow.workflow_id}`);
        if (!isTerminalStatus(job.status)) throw new Conflict('job_running', `job ${jobId} has not finished yet`);
        const archived = await findRunGraph(deps.pool, workflow.workflow_id, jobId);
        if (archived && archived.status !== 'unfinished') return archived;
        // The job archives its graph right after its terminal event; a read in between builds it from the events.
        const built = await archiveRunGraph(deps.pool, jobId);
        if (!built) throw new NotFound(`run graph of ${jobId}`);
        return built;
      },
    );
  };
}

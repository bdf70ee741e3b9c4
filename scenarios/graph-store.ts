import type { Pool } from 'pg';
import { agentGraphSchema, applyGraphEdit, GraphEditError, type AgentGraph, type GraphEdit } from './graph';
import { withTransaction } from '../db/transaction';

export interface StoredGraph {
  graph: AgentGraph;
  /** 0 for a graph nobody has edited yet (seeded from the scenario file, not stored). */
  version: number;
}

/** The workflow's edited graph, or undefined when it still runs its scenario file as written. */
export async function loadWorkflowGraph(pool: Pool, workflowId: string): Promise<StoredGraph | undefined> {
  const { rows } = await pool.query<{ graph: unknown; version: number }>(
    'SELECT graph, version FROM workflow_graphs WHERE workflow_id = $1',
    [workflowId],
  );
  const row = rows[0];
  return row ? { graph: agentGraphSchema.parse(row.graph), version: row.version } : undefined;
}

/**
 * Applies one edit under a row lock, so concurrent edits of one workflow apply one after the other and none is lost.
 * The first edit stores the graph `seed` returns (the scenario file's); later edits never read the file. With
 * `expectedVersion`, an edit made against an older version is refused (a conflict, `version_conflict`) instead of silently
 * building on a graph the client did not see.
 */
export async function editWorkflowGraph(
  pool: Pool,
  workflowId: string,
  seed: () => Promise<AgentGraph>,
  edit: GraphEdit,
  expectedVersion?: number,
): Promise<StoredGraph> {
  return withTransaction(pool, async (client) => {
    // Serializes edits even before the graph row exists: the workflow row is always there. NO KEY UPDATE (edits
    // conflict with each other) rather than UPDATE, which would also wait for every row that references the workflow
    // being written: a follow-up prompt holds that reference while its running job takes the prompt (up to 20 s).
    await client.query('SELECT 1 FROM workflows WHERE workflow_id = $1 FOR NO KEY UPDATE', [workflowId]);
    const { rows } = await client.query<{ graph: unknown; version: number }>(
      'SELECT graph, version FROM workflow_graphs WHERE workflow_id = $1',
      [workflowId],
    );
    const current = rows[0]
      ? { graph: agentGraphSchema.parse(rows[0].graph), version: rows[0].version }
      : { graph: await seed(), version: 0 };
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      throw new GraphEditError(
        'conflict',
        'version_conflict',
        `the graph is at version ${current.version}, not ${expectedVersion}; reload it and edit again`,
      );
    }
    const graph = applyGraphEdit(current.graph, edit);
    const version = current.version + 1;
    await client.query(
      `INSERT INTO workflow_graphs (workflow_id, graph, version) VALUES ($1, $2, $3)
       ON CONFLICT (workflow_id) DO UPDATE SET graph = EXCLUDED.graph, version = EXCLUDED.version, updated_at = now()`,
      [workflowId, JSON.stringify(graph), version],
    );
    return { graph, version };
  });
}

/**
 * A layered drawing of a small DAG, top to bottom: each node's row is its longest path from a source, nodes of a row
 * sit side by side in `order`. A chain of levels grows downwards, so the drawing stays about one node wide however
 * long the chain, and only fan-out (an L1 delegating to several L2s) makes it wider.
 */
export interface Placed {
  id: string;
  x: number;
  y: number;
}

export const NODE_W = 170;
export const NODE_H = 44;
const GAP_X = 24;
const GAP_Y = 40;
/** Room on the right for an edge that goes back up (a retry loop), drawn as a curve beside the nodes. */
export const BACK_EDGE_ROOM = 50;

export function layeredLayout(
  order: readonly string[],
  edges: readonly { from: string; to: string }[],
): {
  nodes: Placed[];
  width: number;
  height: number;
} {
  const depth = new Map<string, number>(order.map((id) => [id, 0]));
  // `order` is already a topological order, so one pass settles every longest path.
  for (const id of order) {
    for (const edge of edges) {
      if (edge.from === id && depth.has(edge.to)) {
        depth.set(edge.to, Math.max(depth.get(edge.to)!, depth.get(id)! + 1));
      }
    }
  }
  const columns = new Map<number, number>();
  const nodes = order.map((id) => {
    const row = depth.get(id) ?? 0;
    const column = columns.get(row) ?? 0;
    columns.set(row, column + 1);
    return { id, x: 10 + column * (NODE_W + GAP_X), y: 10 + row * (NODE_H + GAP_Y) };
  });
  const width = Math.max(...nodes.map((n) => n.x + NODE_W), 0) + 10 + BACK_EDGE_ROOM;
  const height = Math.max(...nodes.map((n) => n.y + NODE_H), 0) + 10;
  return { nodes, width, height };
}

/** A layered drawing of a small DAG: each node's column is its longest path from a source, rows keep `order`. */
export interface Placed {
  id: string;
  x: number;
  y: number;
}

export const NODE_W = 170;
export const NODE_H = 44;
const GAP_X = 70;
const GAP_Y = 24;

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
  const rows = new Map<number, number>();
  const nodes = order.map((id) => {
    const column = depth.get(id) ?? 0;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    return { id, x: 10 + column * (NODE_W + GAP_X), y: 10 + row * (NODE_H + GAP_Y) };
  });
  const width = Math.max(...nodes.map((n) => n.x + NODE_W), 0) + 10;
  const height = Math.max(...nodes.map((n) => n.y + NODE_H), 0) + 10;
  return { nodes, width, height };
}

import { useId } from 'react';
import './run-graph.css';
import { layeredLayout, NODE_H, NODE_W } from './layout';

export interface DrawnEdge {
  from: string;
  to: string;
  label?: string;
  kind?: string;
}

/**
 * An SVG drawing of a graph, fitted to its panel: never wider than the panel (a narrow one scales it down), never
 * stretched past its natural size. The same data is listed in text beside it for people who do not see it.
 */
export function GraphDrawing({
  title,
  order,
  labels,
  edges,
}: {
  title: string;
  order: string[];
  labels?: Record<string, string>;
  edges: DrawnEdge[];
}) {
  const layout = layeredLayout(order, edges);
  const at = new Map(layout.nodes.map((n) => [n.id, n]));
  // Two drawings on one page (the agent graph and a run graph) must not share a marker id.
  const arrow = `arrow-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <div className="graph-fit">
      <svg
        className="graph"
        role="img"
        aria-label={title}
        width="100%"
        style={{ maxWidth: layout.width, height: 'auto', display: 'block' }}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        preserveAspectRatio="xMinYMin meet"
      >
        <defs>
          <marker id={arrow} viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto">
            <path d="M0,0 L10,5 L0,10 z" fill="currentColor" />
          </marker>
        </defs>
        {edges.map((edge, i) => {
          const a = at.get(edge.from);
          const b = at.get(edge.to);
          if (!a || !b) return null;
          // Downwards from the bottom of one node to the top of the next; an edge back up loops on the right.
          const backwards = b.y <= a.y;
          const d = backwards
            ? `M${a.x + NODE_W},${a.y + NODE_H / 2} C${a.x + NODE_W + 40},${a.y + NODE_H / 2} ${b.x + NODE_W + 40},${b.y + NODE_H / 2} ${b.x + NODE_W},${b.y + NODE_H / 2}`
            : (() => {
                const x1 = a.x + NODE_W / 2;
                const y1 = a.y + NODE_H;
                const x2 = b.x + NODE_W / 2;
                const y2 = b.y;
                const mid = (y1 + y2) / 2;
                return `M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2}`;
              })();
          return (
            <path key={i} d={d} className={`edge edge-${edge.kind ?? 'plain'}`} markerEnd={`url(#${arrow})`}>
              {edge.label ? <title>{edge.label}</title> : null}
            </path>
          );
        })}
        {layout.nodes.map((node) => (
          <g key={node.id} transform={`translate(${node.x},${node.y})`} className="node">
            <rect width={NODE_W} height={NODE_H} rx={6} />
            <text x={NODE_W / 2} y={NODE_H / 2 + 5} textAnchor="middle">
              {labels?.[node.id] ?? node.id}
            </text>
          </g>
        ))}
      </svg>
    </div>
  );
}

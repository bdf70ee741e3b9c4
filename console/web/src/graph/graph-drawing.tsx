import { layeredLayout, NODE_H, NODE_W } from './layout';

export interface DrawnEdge {
  from: string;
  to: string;
  label?: string;
  kind?: string;
}

/** An SVG drawing of a graph; the same data is listed in text beside it for people who do not see it. */
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
  return (
    // A wide graph scrolls sideways; the scroller takes focus so the keyboard can scroll it too.
    <div className="graph-scroll" tabIndex={0} role="group" aria-label={`${title} (scrollable)`}>
      <svg
        className="graph"
        role="img"
        aria-label={title}
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
      >
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto">
            <path d="M0,0 L10,5 L0,10 z" fill="currentColor" />
          </marker>
        </defs>
        {edges.map((edge, i) => {
          const a = at.get(edge.from);
          const b = at.get(edge.to);
          if (!a || !b) return null;
          const backwards = b.x <= a.x;
          const x1 = a.x + NODE_W;
          const y1 = a.y + NODE_H / 2;
          const x2 = backwards ? b.x + NODE_W / 2 : b.x;
          const y2 = backwards ? b.y + NODE_H : b.y + NODE_H / 2;
          const mid = (x1 + x2) / 2;
          const d = backwards
            ? `M${a.x + NODE_W / 2},${a.y + NODE_H} C${a.x + NODE_W / 2},${a.y + NODE_H + 40} ${x2},${y2 + 40} ${x2},${y2}`
            : `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`;
          return (
            <path key={i} d={d} className={`edge edge-${edge.kind ?? 'plain'}`} markerEnd="url(#arrow)">
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

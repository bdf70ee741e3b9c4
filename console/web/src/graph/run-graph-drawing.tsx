import { useId, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import type { RunGraphModel, RunLinkKind, RunStep } from '../job/run-graph-model';
import { formatDuration, formatUsd } from '../time';
import './run-graph.css';

/*
 * Drawn top to bottom, one step a row in the order the steps ran, indented by level (L1 at the left, L4 deepest):
 * the hierarchy reads as it ran, and the drawing is as wide as four levels whatever the run's length, so it fits a
 * phone's width without scrolling sideways. A wider panel never stretches it; a narrower one scales it down.
 */
const NODE_W = 236;
const NODE_H = 44;
const GAP = 22;
const INDENT = 26;
const HEADER = 26;
const PAD = 6;
export const RUN_GRAPH_WIDTH = PAD * 2 + 3 * INDENT + NODE_W;

const KIND_NOTE: Record<RunStep['kind'], string> = {
  prelude: 'prelude',
  level: '',
  build_check: 'build check',
  release: 'release',
};

const LINK_NOTE: Record<RunLinkKind, string> = {
  handoff: '',
  retry: 'retry',
  escalate: 'escalate',
  chain: '',
};

function stepTitle(step: RunStep): string {
  const note = KIND_NOTE[step.kind] || (step.run > 1 ? `run ${step.run}` : '');
  return note ? `${step.role} · ${note}` : step.role;
}

function stepFacts(step: RunStep, streaming: boolean): string {
  const state = step.state === 'running' ? (streaming ? 'streaming…' : 'running…') : step.state;
  const facts = [step.verdict && step.verdict !== step.state ? `${state} (${step.verdict})` : state];
  if (step.durationMs !== null) facts.push(formatDuration(step.durationMs));
  if (step.costUsd > 0) facts.push(formatUsd(step.costUsd));
  return facts.join(' · ');
}

interface Placed {
  step: RunStep;
  x: number;
  y: number;
  /** The scenario heading drawn above this step, when it starts one. */
  heading: string | null;
}

function place(model: RunGraphModel): { placed: Placed[]; height: number } {
  const placed: Placed[] = [];
  let y = PAD;
  let scenario: string | null | undefined;
  const many = model.scenarios.length > 1;
  for (const step of model.steps) {
    let heading: string | null = null;
    if (many && step.scenario !== null && step.scenario !== scenario) {
      heading = scenario === undefined ? `${step.scenario} scenario` : `then the ${step.scenario} scenario`;
      y += HEADER;
    }
    if (step.scenario !== null) scenario = step.scenario;
    placed.push({ step, x: PAD + step.depth * INDENT, y, heading });
    y += NODE_H + GAP;
  }
  return { placed, height: Math.max(y - GAP + PAD, NODE_H) };
}

/**
 * A job's run graph as an SVG a person can click: each step is a link (`hrefOf`), opened in the page without a
 * reload. `current` is the step the page shows now (its `?step=`); `streaming` names the running steps whose model
 * output is streaming now (the job page's live output), said in words on the step (`streaming…`) and marked by a dot.
 */
export function RunGraphDrawing({
  model,
  title,
  hrefOf,
  current,
  streaming,
}: {
  model: RunGraphModel;
  title: string;
  hrefOf: (step: RunStep) => string;
  current?: string | null;
  streaming?: ReadonlySet<string>;
}) {
  const navigate = useNavigate();
  const marker = `run-arrow-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const { placed, height } = place(model);
  const at = new Map(placed.map((p) => [p.step.id, p]));

  function open(event: MouseEvent<Element>, href: string) {
    // A plain click stays in the app; a modified one (new tab, new window) is the browser's.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate(href);
  }

  return (
    <svg
      className="run-graph"
      role="group"
      aria-label={title}
      data-steps={model.steps.length}
      viewBox={`0 0 ${RUN_GRAPH_WIDTH} ${height}`}
      width="100%"
      style={{ maxWidth: RUN_GRAPH_WIDTH }}
      preserveAspectRatio="xMinYMin meet"
    >
      <defs>
        <marker id={marker} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
          <path d="M0,0 L10,5 L0,10 z" fill="currentColor" />
        </marker>
      </defs>
      {model.links.map((link) => {
        const a = at.get(link.from);
        const b = at.get(link.to);
        if (!a || !b) return null;
        const x1 = a.x + 14;
        const x2 = b.x + 14;
        const y1 = a.y + NODE_H;
        const y2 = b.y;
        const turn = y2 - GAP / 2;
        const note = LINK_NOTE[link.kind];
        return (
          <g key={`${link.from}>${link.to}`} className={`run-link run-link-${link.kind}`}>
            <path d={`M${x1},${y1} V${turn} H${x2} V${y2 - 1}`} markerEnd={`url(#${marker})`} />
            {note ? (
              <text x={Math.max(x1, x2) + 10} y={turn + 4}>
                {note}
              </text>
            ) : null}
          </g>
        );
      })}
      {placed.map(({ step, x, y, heading }) => {
        const href = hrefOf(step);
        const live = step.state === 'running' && (streaming?.has(step.id) ?? false);
        // The name is the visible text, in reading order (a screen reader says what a sighted person sees).
        const label = `${stepTitle(step)} ${stepFacts(step, live)}`;
        return (
          <g key={step.id}>
            {heading ? (
              // Right-aligned: the links between steps run down the left, and a heading there would sit on one.
              <text className="run-heading" x={RUN_GRAPH_WIDTH - PAD} y={y - 9} textAnchor="end">
                {heading}
              </text>
            ) : null}
            <a
              href={href}
              onClick={(e) => open(e, href)}
              aria-current={current === step.id ? 'step' : undefined}
              className={`run-step run-step-${step.state} run-step-${step.kind}${live ? ' run-step-streaming' : ''}`}
              data-step-id={step.id}
              data-state={step.state}
              data-streaming={live || undefined}
            >
              <title>{label}</title>
              <rect x={x} y={y} width={NODE_W} height={NODE_H} rx={6} />
              <text x={x + 10} y={y + 18} className="run-step-title">
                {stepTitle(step)}
              </text>
              <text x={x + 10} y={y + 35} className="run-step-facts">
                {stepFacts(step, live)}
              </text>
              {/* Decoration only: the words above say it. */}
              {live ? (
                <circle className="run-step-live-dot" cx={x + NODE_W - 12} cy={y + 12} r={4} aria-hidden="true" />
              ) : null}
            </a>
          </g>
        );
      })}
    </svg>
  );
}

import { Link } from 'react-router';
import { formatDuration, formatUsd } from '../time';
import type { JobView, LevelRun } from './derive';
import { LiveOutputView } from './live-output-view';
import type { LiveStore } from './live-store';
import { runAttribution } from './run-attribution';
import { stepSearch } from './step-drawer';

const LEVEL_NAMES: Record<string, string> = {
  L1: 'L1 · team lead',
  L2: 'L2 · managers',
  L3: 'L3 · acceptance',
  L4: 'L4 · executors',
};

/**
 * The level runs grouped by level, the levels in the order they first ran; each run opens the step drawer. A running
 * run shows its live model output from `live` as it streams.
 */
export function LevelTree({ view, live }: { view: JobView; live?: LiveStore }) {
  if (view.groups.length === 0) return <p className="empty">No level has started yet.</p>;
  return (
    <div className="levels">
      <p className="hint">
        {view.retries} retr{view.retries === 1 ? 'y' : 'ies'}, {view.escalations} escalation
        {view.escalations === 1 ? '' : 's'}
        {view.scenarios.length > 0 ? ` · scenarios ${view.scenarios.join(' → ')}` : ''}
      </p>
      <ul className="tree">
        {view.groups.map((group) => (
          <li key={group.level}>
            <span className="tree-level">{LEVEL_NAMES[group.level] ?? group.level}</span>
            <ul>
              {group.runs.map((run) => (
                <RunNode key={run.key} run={run} scenarios={view.scenarios.length} live={live} />
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

const STATE_NAMES: Record<LevelRun['state'], string> = {
  routed: 'routed',
  running: 'running',
  ok: 'ok',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

function RunNode({ run, scenarios, live }: { run: LevelRun; scenarios: number; live?: LiveStore }) {
  const attribution = runAttribution(run);
  return (
    <li
      className={`run run-${run.state}`}
      data-level={run.levelId}
      data-role={run.role}
      data-attempt={run.attempt}
      data-state={run.state}
    >
      <div>
        <Link to={stepSearch(run.levelId)} className="run-open">
          <strong>{run.role}</strong>
          {run.label ? ` ${run.label}` : ''}
          {/* A chained scenario runs the same roles again: its name tells the two runs apart. */}
          {scenarios > 1 && run.scenario ? <span className="hint"> in {run.scenario}</span> : null}
          <span className="visually-hidden"> ({run.levelId.split('/').slice(-1)[0]}), open its step</span>
        </Link>{' '}
        · <span className={`badge run-state-${run.state}`}>{STATE_NAMES[run.state]}</span>
        {run.verdict ? (
          <>
            {' '}
            · verdict <span className={`badge verdict-${run.verdict}`}>{run.verdict}</span>
          </>
        ) : null}
        {run.gate ? (
          <>
            {' '}
            · gate <strong>{run.gate.decision}</strong>
            {run.gate.to ? ` → ${run.gate.to}` : ''}
          </>
        ) : null}
        {' · '}
        {formatDuration(run.durationMs)} · {formatUsd(run.costUsd)}
        {run.tokens ? ` · ${run.tokens.prompt + run.tokens.completion} tokens` : ''}
      </div>
      {run.retryReason ? <div className="why">{run.retryReason}</div> : null}
      <div className="models">
        {attribution}
        {run.hops.map((hop, i) => (
          <span key={i} className="hop">
            {' '}
            → fell back from {hop.fromModel || 'the asked-for model'} to {hop.toProvider}/{hop.toModel} ({hop.reason})
          </span>
        ))}
      </div>
      {run.state === 'running' || run.state === 'routed' ? (
        <LiveOutputView store={live} levelId={run.levelId} role={run.role} />
      ) : null}
      {run.deltas.length > 0 || (run.gate?.deltas.length ?? 0) > 0 ? (
        <ul className="deltas">
          {[...new Set([...run.deltas, ...(run.gate?.deltas ?? [])])].map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

import { formatDuration, formatUsd } from '../time';
import type { JobView, LevelRun } from './derive';

const LEVEL_NAMES: Record<string, string> = {
  L1: 'L1 · team lead',
  L2: 'L2 · managers',
  L3: 'L3 · acceptance',
  L4: 'L4 · executors',
};

export function LevelTree({ view }: { view: JobView }) {
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
                <RunNode key={run.key} run={run} />
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

function state(run: LevelRun): string {
  if (!run.finishedAt) return run.startedAt ? 'running' : 'routed';
  return run.ok === false ? 'failed' : 'ok';
}

function RunNode({ run }: { run: LevelRun }) {
  const intended = run.intended?.displayName ?? (run.intended?.model || null);
  return (
    <li className={`run run-${state(run)}`} data-role={run.role} data-attempt={run.attempt}>
      <div>
        <strong>{run.role}</strong> attempt {run.attempt} · <span className="badge">{state(run)}</span>
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
      </div>
      <div className="models">
        {run.deterministic ? (
          'composed in code, no model call'
        ) : (
          <>
            {intended ? <>routed to {intended}</> : null}
            {run.hops.map((hop, i) => (
              <span key={i} className="hop">
                {' '}
                → fell back from {hop.fromModel} to {hop.toProvider}/{hop.toModel} ({hop.reason})
              </span>
            ))}
            {run.answered ? (
              <>
                {' '}
                · answered by{' '}
                <strong>
                  {run.answered.provider}/{run.answered.model}
                </strong>
              </>
            ) : run.finishedAt ? (
              ' · no model answered'
            ) : null}
          </>
        )}
      </div>
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

import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, call } from '../api';
import { RunGraphDrawing } from '../graph/run-graph-drawing';
import { runGraphFromArchive } from '../job/run-graph-model';
import { ErrorNote, LoadProblem, Loading } from '../problem';
import { Hidden, PromptAccepted, PromptList, RunGraph, Workflow } from '../schemas';
import { formatDuration, formatUsd } from '../time';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { AgentGraphPanel } from './agent-graph';
import { StatusBadge } from './status-badge';
import { useAction } from '../use-action';
import { modelAttribution, parseModelRef } from '../model-attribution';
import { TitleDialog } from './title-editor';
import './workflow-page.css';

/** A workflow whose latest job ended has an archived run graph; asking before that only earns a 409. */
const FINISHED = new Set(['completed', 'failed', 'cancelled']);

export function WorkflowPage() {
  const { id = '' } = useParams();
  const base = `/api/v1/workflows/${encodeURIComponent(id)}`;
  const workflow = useResource(base, Workflow);
  const prompts = useResource(`${base}/prompts`, PromptList);
  const [hidden, setHidden] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [renamed, setRenamed] = useState<Workflow | null>(null);
  const [renaming, setRenaming] = useState(false);

  if (workflow.error) return <LoadProblem error={workflow.error} />;
  if (!workflow.data) return <Loading what="the workflow" />;
  const wf = renamed ?? workflow.data;
  const isHidden = hidden ?? wf.hidden;

  async function toggle() {
    setError(null);
    try {
      const answer = await call(`${base}/${isHidden ? 'unhide' : 'hide'}`, Hidden, { method: 'POST', body: {} });
      setHidden(answer.hidden);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <section>
      <div className="page-head">
        <h1 className="workflow-title">
          <span className="workflow-kicker">
            Workflow <code>{wf.workflow_id}</code>
          </span>{' '}
          <span className="workflow-name">{wf.title}</span>
        </h1>
        <StatusBadge status={wf.status} />
      </div>
      <dl className="facts">
        <dt>Project</dt>
        <dd>{wf.project_slug ?? '—'}</dd>
        <dt>Scenario</dt>
        <dd>{wf.scenario ?? '—'}</dd>
        <dt>Updated</dt>
        <dd>
          <Time iso={wf.updated_at} />
        </dd>
        <dt>Latest job</dt>
        <dd>
          {wf.latest_job_id ? (
            <Link to={`/jobs/${encodeURIComponent(wf.latest_job_id)}`}>{wf.latest_job_id}</Link>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      <div className="actions">
        <button type="button" className="secondary" onClick={() => setRenaming(true)}>
          Rename
        </button>
        <button type="button" className="secondary" onClick={() => void toggle()}>
          {isHidden ? 'Unhide' : 'Hide'} workflow
        </button>
      </div>
      {renaming ? (
        <TitleDialog
          workflow={wf}
          onClose={() => setRenaming(false)}
          onSaved={(saved) => {
            setRenamed(saved);
            setRenaming(false);
          }}
        />
      ) : null}
      <ErrorNote error={error} />

      <section aria-labelledby="prompts-title">
        <h2 id="prompts-title">Prompts</h2>
        {prompts.loading && !prompts.data ? <Loading what="prompts" /> : null}
        {prompts.error ? <ErrorNote error={prompts.error} /> : null}
        <ol className="prompts">
          {(prompts.data?.prompts ?? []).map((p) => (
            <li key={p.prompt_id}>
              <div className="prompt-meta">
                <code>{p.prompt_id}</code> · <Time iso={p.created_at} /> ·{' '}
                {p.delivered === 'running_job' ? 'added to the running job' : 'started a job'}
                {p.job_id ? (
                  <>
                    {' '}
                    · <Link to={`/jobs/${encodeURIComponent(p.job_id)}`}>{p.job_id}</Link>
                  </>
                ) : null}
              </div>
              <p className="prompt-text">{p.prompt}</p>
            </li>
          ))}
        </ol>
        <AddPrompt base={base} onAdded={prompts.reload} />
      </section>

      <AgentGraphPanel workflowId={wf.workflow_id} />
      {FINISHED.has(wf.status) ? (
        <RunGraphPanel base={base} workflowId={wf.workflow_id} />
      ) : (
        <section aria-labelledby="run-graph-title">
          <h2 id="run-graph-title">Last finished run</h2>
          <p className="empty">The run graph appears here when a job of this workflow finishes.</p>
        </section>
      )}
    </section>
  );
}

function AddPrompt({ base, onAdded }: { base: string; onAdded: () => void }) {
  const [prompt, setPrompt] = useState('');
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<{ delivered: string; job_id: string | null } | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      const accepted = await call(`${base}/prompts`, PromptAccepted, { method: 'POST', body: { prompt } });
      setResult(accepted);
      setPrompt('');
      onAdded();
    });
  }
  return (
    <form className="stack" onSubmit={(e) => void submit(e)}>
      <label htmlFor="add-prompt">Add a prompt</label>
      <textarea id="add-prompt" required rows={3} value={prompt} onChange={(e) => setPrompt(e.target.value)} />
      <p className="hint">A running job takes it into its context; otherwise it starts the workflow&apos;s next job.</p>
      <ErrorNote error={error} />
      {result ? (
        <p role="status">
          {result.delivered === 'running_job' ? 'Delivered to the running job' : 'Started a new job'}
          {result.job_id ? (
            <>
              : <Link to={`/jobs/${encodeURIComponent(result.job_id)}`}>{result.job_id}</Link>
            </>
          ) : null}
          .
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        Add prompt
      </button>
    </form>
  );
}

function RunGraphPanel({ base, workflowId }: { base: string; workflowId: string }) {
  const graph = useResource(`${base}/run-graph`, RunGraph);
  const notYet = graph.error instanceof ApiError && (graph.error.status === 409 || graph.error.status === 404);
  return (
    <section aria-labelledby="run-graph-title">
      <h2 id="run-graph-title">Last finished run</h2>
      {graph.loading ? <Loading what="the run graph" /> : null}
      {notYet ? (
        <p className="empty">No job of this workflow has finished yet.</p>
      ) : graph.error ? (
        <ErrorNote error={graph.error} />
      ) : null}
      {graph.data ? (
        <>
          <p className="hint">
            Job <Link to={`/jobs/${encodeURIComponent(graph.data.job_id)}`}>{graph.data.job_id}</Link> ·{' '}
            {graph.data.status} · {graph.data.scenarios.join(' → ')} · {formatUsd(graph.data.total_cost_usd)}
          </p>
          <RunGraphDrawing
            model={runGraphFromArchive(graph.data)}
            title={`What the last finished job of ${workflowId} ran`}
            hrefOf={(step) =>
              `/jobs/${encodeURIComponent(graph.data!.job_id)}?${new URLSearchParams({ step: step.id }).toString()}`
            }
          />
          <table>
            <caption className="visually-hidden">Level runs of the last finished job</caption>
            <thead>
              <tr>
                <th scope="col">Level</th>
                <th scope="col">Attempt</th>
                <th scope="col">Outcome</th>
                <th scope="col">Model</th>
                <th scope="col">Time</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {graph.data.levels.map((l) => (
                <tr key={l.level_id}>
                  <td>{l.role}</td>
                  <td>{l.attempt}</td>
                  <td>
                    {l.ok === false ? 'failed' : 'ok'}
                    {l.verdict ? ` (${l.verdict})` : ''}
                  </td>
                  <td>
                    {modelAttribution({
                      asked: parseModelRef(l.intended_model),
                      answered: l.model ? { provider: l.provider ?? '', model: l.model } : null,
                      composed: l.deterministic === true,
                      finished: l.finished_at !== null,
                    }) || '—'}
                  </td>
                  <td>{formatDuration(l.duration_ms)}</td>
                  <td>{formatUsd(l.cost_usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { call } from '../api';
import { ErrorNote, Loading } from '../problem';
import { AgentGraph } from '../schemas';
import { GraphDrawing } from '../graph/graph-drawing';
import { useResource } from '../use-resource';

/** The workflow's editable agent graph: drawn, listed, and changed through the four graph endpoints. */
export function AgentGraphPanel({ workflowId }: { workflowId: string }) {
  const base = `/api/v1/workflows/${encodeURIComponent(workflowId)}`;
  const loaded = useResource(`${base}/graph`, AgentGraph);
  const [graph, setGraph] = useState<AgentGraph | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const current = graph ?? loaded.data ?? null;

  async function edit(path: string, body: Record<string, unknown>) {
    if (!current) return false;
    setBusy(true);
    setError(null);
    try {
      setGraph(
        await call(`${base}/${path}`, AgentGraph, { method: 'POST', body: { ...body, version: current.version } }),
      );
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  }

  if (loaded.error) return <ErrorNote error={loaded.error} />;
  if (!current) return <Loading what="the agent graph" />;
  const roles = current.agents.map((a) => a.role);

  return (
    <section aria-labelledby="graph-title">
      <h2 id="graph-title">Agent graph</h2>
      <p className="hint">
        Version {current.version} (
        {current.version === 0 ? `the ${current.scenario} scenario, not edited yet` : 'edited'}). The next job runs it
        in this order: {current.order.join(' → ')}
        {current.chain ? `, then the ${current.chain.scenario} scenario` : ''}.
      </p>
      <GraphDrawing
        title={`Agent graph of ${workflowId}`}
        order={current.order}
        edges={current.edges.map((e) => ({ from: e.from, to: e.to, label: e.prompt }))}
      />
      <h3>Edges</h3>
      <ul className="edges">
        {current.edges.map((e) => (
          <EdgeRow key={`${e.from}>${e.to}`} from={e.from} to={e.to} prompt={e.prompt} busy={busy} edit={edit} />
        ))}
      </ul>
      <ErrorNote error={error} />
      <AddEdge roles={roles} busy={busy} edit={edit} />
      <AddAgent busy={busy} edit={edit} />
    </section>
  );
}

type Edit = (path: string, body: Record<string, unknown>) => Promise<boolean>;

function EdgeRow({
  from,
  to,
  prompt,
  busy,
  edit,
}: {
  from: string;
  to: string;
  prompt?: string;
  busy: boolean;
  edit: Edit;
}) {
  const [text, setText] = useState(prompt ?? '');
  const field = `edge-${from}-${to}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  return (
    <li>
      <span>
        {from} → {to}
      </span>
      <label htmlFor={field} className="visually-hidden">
        Note from {from} to {to}
      </label>
      <input id={field} value={text} placeholder="note for the receiver" onChange={(e) => setText(e.target.value)} />
      <button
        type="button"
        className="small"
        disabled={busy}
        onClick={() => void edit('edge-prompt', { from, to, prompt: text.trim() || null })}
      >
        Save note
        <span className="visually-hidden">
          {' '}
          {from} to {to}
        </span>
      </button>
      <button
        type="button"
        className="small secondary"
        disabled={busy}
        onClick={() => void edit('edges/delete', { from, to })}
      >
        Delete
        <span className="visually-hidden">
          {' '}
          edge {from} to {to}
        </span>
      </button>
    </li>
  );
}

function AddEdge({ roles, busy, edit }: { roles: string[]; busy: boolean; edit: Edit }) {
  const [from, setFrom] = useState(roles[0] ?? '');
  const [to, setTo] = useState(roles[1] ?? roles[0] ?? '');
  const [prompt, setPrompt] = useState('');
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await edit('edges', { from, to, ...(prompt.trim() ? { prompt: prompt.trim() } : {}) })) setPrompt('');
  }
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)} aria-label="Add an edge">
      <label htmlFor="edge-from">From</label>
      <select id="edge-from" value={from} onChange={(e) => setFrom(e.target.value)}>
        {roles.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <label htmlFor="edge-to">To</label>
      <select id="edge-to" value={to} onChange={(e) => setTo(e.target.value)}>
        {roles.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <label htmlFor="edge-note">Note</label>
      <input id="edge-note" value={prompt} onChange={(e) => setPrompt(e.target.value)} />
      <button type="submit" disabled={busy}>
        Add edge
      </button>
    </form>
  );
}

function AddAgent({ busy, edit }: { busy: boolean; edit: Edit }) {
  const [role, setRole] = useState('');
  const [prompt, setPrompt] = useState('');
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await edit('agents', { agent: { role: role.trim(), prompt } })) {
      setRole('');
      setPrompt('');
    }
  }
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)} aria-label="Add or replace an agent">
      <label htmlFor="agent-role">Role</label>
      <input
        id="agent-role"
        required
        placeholder="L2.security_lead"
        value={role}
        onChange={(e) => setRole(e.target.value)}
      />
      <label htmlFor="agent-prompt">Brief</label>
      <input id="agent-prompt" required value={prompt} onChange={(e) => setPrompt(e.target.value)} />
      <button type="submit" disabled={busy}>
        Save agent
      </button>
    </form>
  );
}

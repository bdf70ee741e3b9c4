import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../api';
import { ErrorNote } from '../problem';
import { Project, ProjectList, WorkflowCreated } from '../schemas';
import { useAction } from '../use-action';
import { useResource } from '../use-resource';

const TIERS = [
  { value: 'free', label: 'Free', hint: 'free-tier models only; slower, rate limited' },
  { value: 'cheap', label: 'Cost-optimized', hint: 'good models at a low price (default)' },
  { value: 'frontier', label: 'Frontier', hint: 'the strongest models; costs the most' },
] as const;

const NEW_PROJECT = '__new__';

export function NewRunPage() {
  const navigate = useNavigate();
  const projects = useResource('/api/v1/projects', ProjectList);
  const [prompt, setPrompt] = useState('');
  const [project, setProject] = useState('');
  const [projectName, setProjectName] = useState('');
  const [tier, setTier] = useState<(typeof TIERS)[number]['value']>('cheap');
  const [scenario, setScenario] = useState('');
  const { busy, error, run } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      let projectSlug = project || undefined;
      if (project === NEW_PROJECT) {
        const created = await call('/api/v1/projects', Project, { method: 'POST', body: { name: projectName.trim() } });
        projectSlug = created.slug;
        setProject(created.slug);
        projects.reload();
      }
      const accepted = await call('/api/v1/workflows', WorkflowCreated, {
        method: 'POST',
        body: {
          prompt,
          ...(projectSlug ? { project_slug: projectSlug } : {}),
          ...(scenario.trim() ? { scenario: scenario.trim() } : {}),
          metadata: { model_tier: tier },
        },
      });
      // A workflow stored without a job (an API without a database) opens on its own page.
      void navigate(
        accepted.job_id
          ? `/jobs/${encodeURIComponent(accepted.job_id)}`
          : `/workflows/${encodeURIComponent(accepted.workflow.workflow_id)}`,
      );
    });
  }

  return (
    <section>
      <h1>New run</h1>
      <form className="stack" onSubmit={(e) => void submit(e)}>
        <label htmlFor="run-prompt">What should the team do?</label>
        <textarea
          id="run-prompt"
          required
          rows={6}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          placeholder="Write hello.md that greets the reader"
        />

        <label htmlFor="run-project">Project</label>
        <select id="run-project" value={project} onChange={(e) => setProject(e.target.value)}>
          <option value="">No project</option>
          {(projects.data?.projects ?? []).map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.name} ({p.slug})
            </option>
          ))}
          <option value={NEW_PROJECT}>New project…</option>
        </select>
        {project === NEW_PROJECT ? (
          <>
            <label htmlFor="run-project-name">New project name</label>
            <input
              id="run-project-name"
              required
              value={projectName}
              onChange={(e) => setProjectName(e.target.value)}
            />
          </>
        ) : null}

        <fieldset>
          <legend>Compute budget</legend>
          {TIERS.map((t) => (
            <label key={t.value} className="choice">
              <input
                type="radio"
                name="model_tier"
                value={t.value}
                checked={tier === t.value}
                onChange={() => setTier(t.value)}
              />
              <span>
                <strong>{t.label}</strong> — {t.hint}
              </span>
            </label>
          ))}
        </fieldset>

        <label htmlFor="run-scenario">Scenario (optional)</label>
        <input
          id="run-scenario"
          value={scenario}
          onChange={(e) => setScenario(e.target.value)}
          placeholder="build"
          aria-describedby="run-scenario-hint"
        />
        <p id="run-scenario-hint" className="hint">
          A scenario file of this Keel, such as <code>build</code> (the default) or <code>review</code>.
        </p>

        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Starting…' : 'Start run'}
        </button>
      </form>
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../api';
import { FieldError, invalidProps } from '../forms/field-error';
import { ErrorNote } from '../problem';
import { Project, ProjectList, ScenarioList, WorkflowCreated } from '../schemas';
import { useAction } from '../use-action';
import { useResource } from '../use-resource';
import { chosenProject, type ProjectChoice } from './project-choice';
import { ProjectPicker } from './project-picker';

const TIERS = [
  { value: 'free', label: 'Free', hint: 'free-tier models only; slower, rate limited' },
  { value: 'cheap', label: 'Cost-optimized', hint: 'good models at a low price (default)' },
  { value: 'frontier', label: 'Frontier', hint: 'the strongest models; costs the most' },
] as const;

/** Why each field cannot be sent as it is; null when it can. Shown once the person tries to start the run. */
function problems(prompt: string, projectText: string, choice: ProjectChoice | null) {
  return {
    prompt: prompt.trim() === '' ? 'Say what the team should do: the prompt is required.' : null,
    project:
      projectText.trim() !== '' && choice === null
        ? `No project is called “${projectText.trim()}”: pick one from the list, choose “Create project”, or clear the field.`
        : null,
  };
}

export function NewRunPage() {
  const navigate = useNavigate();
  const projects = useResource('/api/v1/projects', ProjectList);
  const scenarios = useResource('/api/v1/scenarios', ScenarioList);
  const [prompt, setPrompt] = useState('');
  const [projectText, setProjectText] = useState('');
  const [project, setProject] = useState<ProjectChoice | null>(null);
  const [tier, setTier] = useState<(typeof TIERS)[number]['value']>('cheap');
  const [scenario, setScenario] = useState('');
  const [tried, setTried] = useState(false);
  const { busy, error, run } = useAction();

  const chosen = chosenProject(project, projectText, projects.data?.projects ?? []);
  const invalid = problems(prompt, projectText, chosen);
  const shown = tried ? invalid : { prompt: null, project: null };
  const chosenScenario = scenarios.data?.scenarios.find((s) => s.name === scenario);
  const defaultScenario = scenarios.data?.scenarios.find((s) => s.default);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (invalid.prompt || invalid.project) {
      document.getElementById(invalid.prompt ? 'run-prompt' : 'run-project')?.focus();
      return;
    }
    await run(async () => {
      let projectSlug = chosen?.kind === 'project' ? chosen.project.slug : undefined;
      if (chosen?.kind === 'create') {
        const created = await call('/api/v1/projects', Project, { method: 'POST', body: { name: chosen.name } });
        projectSlug = created.slug;
        setProject({ kind: 'project', project: created });
        projects.reload();
      }
      const accepted = await call('/api/v1/workflows', WorkflowCreated, {
        method: 'POST',
        body: {
          prompt,
          ...(projectSlug ? { project_slug: projectSlug } : {}),
          ...(scenario ? { scenario } : {}),
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
      <form className="stack" noValidate onSubmit={(e) => void submit(e)}>
        <label htmlFor="run-prompt">What should the team do?</label>
        <textarea
          id="run-prompt"
          required
          rows={6}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          placeholder="Write hello.md that greets the reader"
          {...invalidProps('run-prompt-error', shown.prompt)}
        />
        <FieldError id="run-prompt-error" message={shown.prompt} />

        <ProjectPicker
          projects={projects.data?.projects ?? []}
          inputValue={projectText}
          onInputValueChange={setProjectText}
          choice={project}
          onChoiceChange={setProject}
          error={shown.project}
        />
        {projects.error ? <ErrorNote error={projects.error} /> : null}

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

        <label htmlFor="run-scenario">Scenario</label>
        <select
          id="run-scenario"
          value={scenario}
          onChange={(e) => setScenario(e.target.value)}
          aria-describedby="run-scenario-hint"
        >
          <option value="">Default{defaultScenario ? ` (${defaultScenario.name})` : ''}</option>
          {(scenarios.data?.scenarios ?? []).map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
        <p id="run-scenario-hint" className="hint">
          {chosenScenario
            ? `${chosenScenario.description}${chosenScenario.chain ? ` Then continues with ${chosenScenario.chain}.` : ''}`
            : `The default runs ${defaultScenario?.name ?? 'build'}; a prompt with #build builds a product.`}
        </p>
        {scenarios.error ? <ErrorNote error={scenarios.error} /> : null}

        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Starting…' : 'Start run'}
        </button>
      </form>
    </section>
  );
}

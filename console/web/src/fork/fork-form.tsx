import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../api';
import { ErrorNote } from '../problem';
import { useAction } from '../use-action';
import { ForkAccepted } from './fork-schemas';

const TIERS = [
  { value: '', label: 'Same as this job' },
  { value: 'free', label: 'Free' },
  { value: 'cheap', label: 'Cheap' },
  { value: 'frontier', label: 'Frontier' },
] as const;

/**
 * "Fork from here" on a finished level run (docs/fork-and-compare.md): a new job in the same workflow that carries
 * this run and the ones before it over (their results, files and costs; no model call) and runs on from there, with
 * an edited prompt, another model tier or a budget of its own. The person lands on the fork's page.
 */
export function ForkFromHere({ jobId, levelId }: { jobId: string; levelId: string }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [prompt, setPrompt] = useState('');
  const [tier, setTier] = useState<(typeof TIERS)[number]['value']>('');
  const [budget, setBudget] = useState('');
  const { busy, error, run } = useAction();

  async function fork() {
    const accepted = await run(() =>
      call(`/api/v1/jobs/${encodeURIComponent(jobId)}/fork`, ForkAccepted, {
        method: 'POST',
        body: {
          from: { level_run_id: levelId },
          ...(prompt.trim() ? { prompt_patch: prompt.trim() } : {}),
          ...(tier ? { model_tier: tier } : {}),
          // Empty: the source's ceiling. A number the API refuses (above the deployment's maximum) comes back as its
          // error, shown below.
          ...(budget.trim() ? { budget_usd: Number(budget) } : {}),
        },
      }),
    );
    if (accepted) void navigate(`/jobs/${encodeURIComponent(accepted.job_id)}`);
  }

  if (!open) {
    return (
      <p className="fork-open">
        <button type="button" className="secondary" onClick={() => setOpen(true)}>
          Fork from here
        </button>{' '}
        <span className="hint">a new job that starts after this run, with its files</span>
      </p>
    );
  }
  return (
    <form
      className="fork-form"
      aria-label="Fork from here"
      onSubmit={(event) => {
        event.preventDefault();
        void fork();
      }}
    >
      <h3>Fork from here</h3>
      <p className="hint">
        Carries <code>{levelId}</code> and the runs before it over (their output, files and cost; no model is called for
        them) and runs the rest again with your change.
      </p>
      <label>
        Prompt for the fork <span className="hint">(empty: this job’s prompt)</span>
        <textarea value={prompt} onChange={(e) => setPrompt(e.target.value)} rows={3} maxLength={20_000} />
      </label>
      <label>
        Model tier
        <select value={tier} onChange={(e) => setTier(e.target.value as (typeof TIERS)[number]['value'])}>
          {TIERS.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Budget in USD <span className="hint">(empty: this job’s ceiling)</span>
        <input
          type="number"
          min="0.01"
          step="0.01"
          inputMode="decimal"
          value={budget}
          onChange={(e) => setBudget(e.target.value)}
        />
      </label>
      <ErrorNote error={error} />
      <div className="dialog-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Starting the fork…' : 'Start the fork'}
        </button>
        <button type="button" className="secondary" onClick={() => setOpen(false)} disabled={busy}>
          Not now
        </button>
      </div>
    </form>
  );
}

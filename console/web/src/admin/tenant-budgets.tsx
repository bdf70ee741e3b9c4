import { useState } from 'react';
import { Link } from 'react-router';
import * as z from 'zod/mini';
import { call, seg } from '../api';
import { FieldError, invalidProps } from '../forms/field-error';
import { ErrorNote, LoadProblem, Loading } from '../problem';
import { ScrollTable } from '../scroll-table';
import { formatCents } from '../time';
import { useResource } from '../use-resource';
import { parseBudget } from './budget-input';
import { TenantBudgets, type OrgBudget, type ProjectBudget } from './tenant-budget-schemas';

type Target = { kind: 'org'; row: OrgBudget } | { kind: 'project'; row: ProjectBudget };

function pathOf(target: Target): string {
  const org = `/api/v1/admin/budgets/orgs/${seg(target.row.org_id)}`;
  return target.kind === 'org' ? org : `${org}/projects/${seg(target.row.project_slug)}`;
}

function nameOf(target: Target): string {
  return target.kind === 'org' ? `org ${target.row.org_id}` : `project ${target.row.name} (${target.row.project_slug})`;
}

/**
 * The admin's org and project budgets (docs/budgets.md): month-to-date spend against each monthly budget, set or
 * removed in place. Read from the ingest API, which checks them at submission; users' budgets are the list above.
 */
export function TenantBudgetsSection() {
  const budgets = useResource('/api/v1/admin/budgets', TenantBudgets);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function set(target: Target, cents: number | null) {
    setError(null);
    setNotice(null);
    try {
      await call(pathOf(target), z.unknown(), { method: 'PUT', body: { budget_cents: cents } });
      setNotice(`${nameOf(target)}: ${cents === null ? 'budget removed' : `budget set to ${formatCents(cents)}`}.`);
    } catch (err) {
      setError(err);
    }
    budgets.reload();
  }

  return (
    <section aria-labelledby="tenant-budgets-title">
      <h2 id="tenant-budgets-title">Org and project budgets</h2>
      <p className="hint">
        Monthly, in dollars, checked when a job is submitted: once an org or project has spent its budget this month,
        new jobs in it are refused, and a running job pauses before a model call that would pass it (its submitter
        answers &ldquo;retry&rdquo; once you have raised it). Leave the field empty and press Set to remove a budget.
      </p>
      <div aria-live="polite">
        <ErrorNote error={error} />
        {notice ? <p role="status">{notice}</p> : null}
      </div>
      {budgets.error ? <LoadProblem error={budgets.error} /> : null}
      {budgets.loading && !budgets.data ? <Loading what="budgets" /> : null}
      {budgets.data?.orgs.length === 0 ? <p className="empty">No orgs yet.</p> : null}
      {budgets.data ? (
        <ScrollTable columns={['Org / project', 'Spent this month', 'Left', 'Monthly budget', 'Settings']}>
          {budgets.data.orgs.flatMap((org) => [
            <BudgetRow key={`org:${org.org_id}`} target={{ kind: 'org', row: org }} set={set} />,
            ...budgets
              .data!.projects.filter((p) => p.org_id === org.org_id)
              .map((p) => (
                <BudgetRow
                  key={`project:${p.org_id}/${p.project_slug}`}
                  target={{ kind: 'project', row: p }}
                  set={set}
                />
              )),
          ])}
        </ScrollTable>
      ) : null}
    </section>
  );
}

function BudgetRow({ target, set }: { target: Target; set: (target: Target, cents: number | null) => Promise<void> }) {
  const { row } = target;
  const [text, setText] = useState(row.budget_cents === null ? '' : (row.budget_cents / 100).toFixed(2));
  const id = `budget-${target.kind}-${row.org_id}-${target.kind === 'project' ? target.row.project_slug : ''}`.replace(
    /[^a-zA-Z0-9_-]/g,
    '_',
  );
  const parsed = parseBudget(text);
  const removing = text.trim() === '';
  const inputError = parsed.ok || removing ? null : parsed.reason;
  const name = nameOf(target);
  return (
    <tr data-budget={target.kind === 'org' ? row.org_id : `${row.org_id}/${target.row.project_slug}`}>
      <th scope="row">{target.kind === 'org' ? <strong>{row.org_id}</strong> : <span>↳ {target.row.name}</span>}</th>
      <td>
        {formatCents(row.spent_cents)}
        {row.over_budget ? <span className="badge status-failed"> over budget</span> : null}
      </td>
      <td>{row.remaining_cents === null ? 'no budget' : formatCents(row.remaining_cents)}</td>
      <td>
        <form
          className="inline-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (removing) void set(target, null);
            else if (parsed.ok) void set(target, parsed.cents);
            else document.getElementById(id)?.focus();
          }}
        >
          <label htmlFor={id} className="visually-hidden">
            Monthly budget of {name} in USD
          </label>
          <input
            id={id}
            inputMode="decimal"
            size={7}
            placeholder="none"
            value={text}
            onChange={(e) => setText(e.target.value)}
            {...invalidProps(`${id}-error`, inputError)}
          />
          <button type="submit" className="small">
            Set<span className="visually-hidden"> budget of {name}</span>
          </button>
        </form>
        <FieldError id={`${id}-error`} message={inputError} />
      </td>
      <td>
        {target.kind === 'project' ? (
          <Link to={`/admin/projects/${seg(row.org_id)}/${seg(target.row.project_slug)}/policy`}>
            Approval policy<span className="visually-hidden"> of {name}</span>
          </Link>
        ) : null}
      </td>
    </tr>
  );
}

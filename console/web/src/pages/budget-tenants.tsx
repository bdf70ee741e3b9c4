import { MyBudgets } from '../admin/tenant-budget-schemas';
import { LoadProblem, Loading } from '../problem';
import { ScrollTable } from '../scroll-table';
import { formatCents } from '../time';
import { useResource } from '../use-resource';

/**
 * The org's and its projects' monthly budgets beside the person's own (GET /api/v1/me/budgets): they bind the person's
 * submissions too, and a job that would pass one pauses for a decision. Admins set them on the Admin page.
 */
export function OrgBudgets() {
  const mine = useResource('/api/v1/me/budgets', MyBudgets);
  if (mine.error) return <LoadProblem error={mine.error} />;
  if (!mine.data) return <Loading what="your org's budgets" />;
  const { org, projects } = mine.data;
  const rows = [
    { key: `org:${org.org_id}`, name: `Org ${org.org_id}`, month: org },
    ...projects.map((p) => ({
      key: `project:${p.project_slug}`,
      name: `Project ${p.name} (${p.project_slug})`,
      month: p,
    })),
  ];
  return (
    <section aria-labelledby="org-budgets-title">
      <h2 id="org-budgets-title">Your org and its projects</h2>
      <p className="hint">
        Shared by everyone in the org: once one has spent its monthly budget, new runs in it are refused and running
        jobs pause before their next model call.
      </p>
      <ScrollTable columns={['Budget', 'Spent this month', 'Monthly budget', 'Left']}>
        {rows.map((r) => (
          <tr key={r.key} data-budget={r.key}>
            <th scope="row">{r.name}</th>
            <td>{formatCents(r.month.spent_cents)}</td>
            <td>{r.month.budget_cents === null ? 'none' : formatCents(r.month.budget_cents)}</td>
            <td>
              {r.month.remaining_cents === null ? '—' : formatCents(r.month.remaining_cents)}
              {r.month.over_budget ? <span className="badge status-failed"> over budget</span> : null}
            </td>
          </tr>
        ))}
      </ScrollTable>
    </section>
  );
}

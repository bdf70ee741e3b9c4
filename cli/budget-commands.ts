// `keel budget`: month-to-date spend against budgets (docs/budgets.md), a job's reserved vs settled cost, and an admin
// setting an org's or project's monthly budget.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { dataOf } from '../clients/client';
import { UsageError, type ApiTarget } from './api';
import { reach } from './api-request';
import { table } from './table';

const Month = {
  budget_cents: z.number().nullable(),
  spent_cents: z.number(),
  remaining_cents: z.number().nullable(),
  over_budget: z.boolean(),
};
const OrgMonth = z.looseObject({ org_id: z.string(), ...Month });
const ProjectMonth = z.looseObject({ org_id: z.string(), project_slug: z.string(), name: z.string(), ...Month });
type Row = z.infer<typeof OrgMonth> & { project_slug?: string };

export const MyBudgets = z.looseObject({
  user_id: z.string(),
  period_start: z.string(),
  user: z.looseObject({ exempt: z.boolean(), ...Month }),
  org: OrgMonth,
  projects: z.array(ProjectMonth),
});
export type MyBudgets = z.infer<typeof MyBudgets>;

export const TenantBudgets = z.looseObject({
  period_start: z.string(),
  orgs: z.array(OrgMonth),
  projects: z.array(ProjectMonth),
});
export type TenantBudgets = z.infer<typeof TenantBudgets>;

export const JobReservations = z.looseObject({
  job_id: z.string(),
  totals: z.looseObject({
    calls: z.number(),
    reserved_usd: z.number(),
    settled_usd: z.number(),
    open_usd: z.number(),
    released_usd: z.number(),
  }),
  calls: z.array(
    z.looseObject({
      reservation_id: z.string(),
      level_id: z.string(),
      model: z.string(),
      state: z.string(),
      reserved_usd: z.number(),
      settled_usd: z.number().nullable(),
    }),
  ),
});
export type JobReservations = z.infer<typeof JobReservations>;

export const BUDGET_USAGE = `  keel budget [--json]
      Your month-to-date spend against your monthly budget, and your org's and its projects' budgets.
  keel budget --all [--org <org>] [--json]
      (admin) Every org and project: spent this month, monthly budget, what is left.
  keel budget --set <usd|none> --org <org> [--project <slug>]
      (admin) Set (or with none remove) the monthly budget of an org or of one of its projects.
  keel budget --job <job> [--json]
      What each of the job's model calls reserved before it was made and what it settled at.`;

/** `keel budget`: which view the flags ask for (see BUDGET_USAGE). */
export async function runBudget(target: ApiTarget, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      all: { type: 'boolean', default: false },
      org: { type: 'string' },
      project: { type: 'string' },
      set: { type: 'string' },
      job: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`keel budget takes no arguments, only flags: ${positionals[0]}`);
  const print = (value: unknown, text: string) => console.log(values.json ? JSON.stringify(value, null, 2) : text);
  if (values.job !== undefined) {
    const reservations = await reach(target, async (client) =>
      JobReservations.parse(
        dataOf(await client.GET('/v1/jobs/{id}/reservations', { params: { path: { id: values.job! } } })),
      ),
    );
    print(reservations, renderReservations(reservations));
    return 0;
  }
  if (values.set !== undefined) {
    if (!values.org) throw new UsageError('keel budget --set needs --org <org> (and --project <slug> for a project)');
    const cents = budgetCentsOf(values.set);
    const org = values.org;
    const body = { budget_cents: cents };
    const row: Row = await reach(target, async (client) =>
      values.project === undefined
        ? OrgMonth.parse(dataOf(await client.PUT('/v1/admin/budgets/orgs/{org}', { params: { path: { org } }, body })))
        : ProjectMonth.parse(
            dataOf(
              await client.PUT('/v1/admin/budgets/orgs/{org}/projects/{slug}', {
                params: { path: { org, slug: values.project } },
                body,
              }),
            ),
          ),
    );
    print(row, renderRows([row]));
    return 0;
  }
  if (values.project !== undefined) throw new UsageError('--project goes with --set');
  if (values.all || values.org !== undefined) {
    const org = values.org;
    const listing = await reach(target, async (client) =>
      TenantBudgets.parse(
        dataOf(await client.GET('/v1/admin/budgets', { params: { query: org === undefined ? {} : { org } } })),
      ),
    );
    print(listing, [`Since ${day(listing.period_start)} (UTC)`, renderRows(tenantRows(listing))].join('\n'));
    return 0;
  }
  const mine = await reach(target, async (client) => MyBudgets.parse(dataOf(await client.GET('/v1/me/budgets'))));
  print(mine, renderMine(mine));
  return 0;
}

/** `--set 12.50` or `--set $12.50` → 1250 cents; `none` removes the budget. */
export function budgetCentsOf(text: string): number | null {
  if (text.trim().toLowerCase() === 'none') return null;
  const match = /^\s*\$?(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) throw new UsageError(`--set takes an amount in USD like 25 or 12.50, or none: ${text}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export function usd(cents: number | null): string {
  return cents === null ? '-' : `$${(cents / 100).toFixed(2)}`;
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** Orgs, each followed by its projects (indented), as the console's admin page lists them. */
function tenantRows(listing: TenantBudgets): Row[] {
  return listing.orgs.flatMap((org) => [org, ...listing.projects.filter((p) => p.org_id === org.org_id)]);
}

/** One line a budget: who, spent, budget, left (over budget flagged). */
export function renderRows(rows: Row[]): string {
  const cells = rows.map((row) => [
    row.project_slug === undefined ? `org ${row.org_id}` : `  project ${row.project_slug}`,
    usd(row.spent_cents),
    row.budget_cents === null ? 'none' : usd(row.budget_cents),
    row.remaining_cents === null ? '-' : `${usd(row.remaining_cents)}${row.over_budget ? ' (over budget)' : ''}`,
  ]);
  return table(['BUDGET', 'SPENT', 'MONTHLY BUDGET', 'LEFT'], cells);
}

export function renderMine(mine: MyBudgets): string {
  const you = mine.user;
  const yours = you.exempt
    ? `You (${mine.user_id}) spent ${usd(you.spent_cents)} this month; no monthly cap.`
    : `You (${mine.user_id}) spent ${usd(you.spent_cents)} of ${usd(you.budget_cents)} this month; ` +
      `${usd(you.remaining_cents)} left${you.over_budget ? ': over budget, new jobs are refused' : ''}.`;
  return [
    `Since ${day(mine.period_start)} (UTC)`,
    yours,
    '',
    renderRows([mine.org, ...mine.projects.filter((p) => p.budget_cents !== null || p.spent_cents > 0)]),
  ].join('\n');
}

export function renderReservations(r: JobReservations): string {
  const money = (v: number | null) => (v === null ? '-' : `$${v.toFixed(4)}`);
  const t = r.totals;
  const head =
    `Job ${r.job_id}: ${t.calls} model call${t.calls === 1 ? '' : 's'}, reserved ${money(t.reserved_usd)}, ` +
    `settled ${money(t.settled_usd)}` +
    (t.open_usd > 0 ? `, open ${money(t.open_usd)}` : '') +
    (t.released_usd > 0 ? `, released ${money(t.released_usd)}` : '');
  if (r.calls.length === 0) return head;
  const cells = r.calls.map((c) => [c.level_id, c.model, c.state, money(c.reserved_usd), money(c.settled_usd)]);
  return [head, '', table(['LEVEL', 'MODEL', 'STATE', 'RESERVED', 'SETTLED'], cells)].join('\n');
}

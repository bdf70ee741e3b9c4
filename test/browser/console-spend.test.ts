import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { createProject } from '../../db/projects';
import { eventually } from '../integration/eventually';
import { seriousViolations } from './axe';
import { submitFromNewRun, timelineRow } from './console-actions';
import { CONSOLE_ORG, startBrowserStack, type BrowserStack, type OpenedPage } from './stack';

/**
 * Spend against budgets in the console (issue 36 item 4, docs/budgets.md), in Chromium against the real stack and the
 * offline demo model, whose `#cost=` makes each call cost that much: a job's reserved and settled cost on its page
 * (totals and each call), a member's own month beside their org's and project's budgets on My budget, and what is left
 * of each user's, org's and project's month on the admin page.
 */
const MEMBER = 'spender@example.test';
const ADMIN = 'treasurer@example.test';
/** With KEEL_SHOTS_DIR set, the test leaves screenshots of what it looked at there (for people, not assertions). */
const SHOTS = process.env.KEEL_SHOTS_DIR;
let stack: BrowserStack;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack();
  await stack.createUser({ email: MEMBER, budgetCents: 100 });
  await stack.createUser({ email: ADMIN, role: 'admin' });
  await createProject(stack.infra.db.pool, { name: 'Spend site', slug: 'spend-site', orgId: CONSOLE_ORG });
}, 180_000);

afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

async function openAs(email: string, path: string) {
  const o = await stack.openAs(email, path);
  opened.push(o);
  return o;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await fs.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const money = (usd: number) => `$${usd.toFixed(2)}`;

test("a job's page shows what its calls reserved and settled; My budget and the admin page show the month against each budget", async () => {
  const { page, problems } = await openAs(MEMBER, '/runs/new');
  const jobId = await submitFromNewRun(page, stack.consoleUrl, 'Write spend.md #cost=0.05');
  await timelineRow(page, 'final').waitFor({ timeout: 240_000 });

  // The job's cost as the API says it, against what the page shows.
  const job = (await (
    await fetch(`${stack.keel.baseUrl}/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${stack.keel.token}` } })
  ).json()) as { cost_usd: number; reservations: { calls: number } };
  const calls = job.reservations.calls;
  expect(calls).toBeGreaterThan(0);
  expect(job.cost_usd).toBeCloseTo(calls * 0.05, 6);
  const facts = page.getByTestId('job-reservations');
  await eventually(
    async () =>
      (await facts.innerText()) ===
        `settled ${money(job.cost_usd)} of ${money(job.cost_usd)} reserved over ${calls} model calls` || undefined,
    { what: 'the reserved and settled totals on the job page', timeoutMs: 60_000 },
  );
  await page.getByText(`Model calls: reserved and settled (${calls})`).click();
  const rows = page.locator('.job-calls tr[data-reservation]');
  await eventually(async () => (await rows.count()) === calls || undefined, { what: 'a row for each call' });
  expect(await rows.first().innerText()).toMatch(/demo\/.*\tsettled\t\$0\.05\t\$0\.05/);
  await shot(page, 'job-reserved-settled');
  expect(await seriousViolations(page)).toEqual([]);

  // My budget: the member's own month, and the org's and its project's budgets beside it.
  const spentCents = Math.round(job.cost_usd * 100);
  await page.goto(`${stack.consoleUrl}/budget`);
  await page.getByText(`Spent ${money(spentCents / 100)} of $1.00 this month`, { exact: false }).waitFor();
  await page.getByRole('heading', { name: 'Your org and its projects' }).waitFor();
  const orgRow = page.locator(`tr[data-budget="org:${CONSOLE_ORG}"]`);
  await orgRow.waitFor();
  expect(await orgRow.innerText()).toBe(`Org ${CONSOLE_ORG}\t${money(spentCents / 100)}\tnone\t—`);
  expect(await page.locator('tr[data-budget="project:spend-site"]').innerText()).toBe(
    'Project Spend site (spend-site)\t$0.00\tnone\t—',
  );
  await shot(page, 'my-budget-org-projects');
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);

  // The admin page: every user's spend, budget and what is left; the org's and project's with theirs.
  const admin = await openAs(ADMIN, '/admin');
  const memberRow = admin.page.locator(`tr[data-email="${MEMBER}"]`);
  await memberRow.waitFor();
  expect(await memberRow.getByTestId('user-left').innerText()).toBe(money((100 - spentCents) / 100));
  expect(await admin.page.locator(`tr[data-email="${ADMIN}"]`).getByTestId('user-left').innerText()).toBe(
    'no cap (admin)',
  );
  await admin.page.getByLabel(`Monthly budget of org ${CONSOLE_ORG} in USD`).fill('5');
  await admin.page.getByRole('button', { name: `Set budget of org ${CONSOLE_ORG}` }).click();
  await admin.page.getByRole('status').getByText(`org ${CONSOLE_ORG}: budget set to $5.00.`).waitFor();
  const tenantRow = admin.page.locator(`tr[data-budget="${CONSOLE_ORG}"]`);
  await eventually(
    async () =>
      (await tenantRow.innerText()).startsWith(
        `${CONSOLE_ORG}\t${money(spentCents / 100)}\t${money((500 - spentCents) / 100)}`,
      ) || undefined,
    { what: "the org's row to show its spend and what is left of $5.00" },
  );
  await shot(admin.page, 'admin-spend');
  expect(await seriousViolations(admin.page)).toEqual([]);
  expect(admin.problems).toEqual([]);

  // The member's page shows the org budget the admin set, and what is left of it.
  await page.reload();
  await eventually(
    async () =>
      (await orgRow.innerText()) ===
        `Org ${CONSOLE_ORG}\t${money(spentCents / 100)}\t$5.00\t${money((500 - spentCents) / 100)}` || undefined,
    { what: "the member's page to show the org's budget" },
  );
});

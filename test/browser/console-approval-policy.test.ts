import fs from 'node:fs/promises';
import { createApproval } from '../../db/approvals';
import { createProject } from '../../db/projects';
import { eventually } from '../integration/eventually';
import { seriousViolations } from './axe';
import { seedWorkflow } from './seed';
import { CONSOLE_ORG, startBrowserStack, type BrowserStack, type OpenedPage } from './stack';

/**
 * A project's approval policy in the console (issue 34, item 4, docs/approval-policies.md), in Chromium against the
 * real stack: an admin reaches it from the admin page's project row, saves a policy with a mistake and reads the
 * refusal under the editor, fixes it, dry-runs it on the project's last approvals (each row names the decision and the
 * rule that decided), and sees the change in the policy's history. Screenshots land in /tmp/shots-policy/.
 */
const ADMIN = 'policy-admin@example.test';
const SHOTS = '/tmp/shots-policy';
let stack: BrowserStack;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack();
  await stack.createUser({ email: ADMIN, role: 'admin' });
  await fs.mkdir(SHOTS, { recursive: true });
}, 180_000);

afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

/** Two approvals of the project, decided by a person: one that wrote under docs/, one under src/. */
async function seedApprovals(project: string): Promise<{ docs: string; src: string }> {
  const pool = stack.infra.db.pool;
  const { workflowId, jobId } = await seedWorkflow(pool, {
    createdBy: 'writer',
    status: 'completed',
    updatedAt: new Date(),
    project,
  });
  const ids = { docs: `ap-docs-${jobId}`, src: `ap-src-${jobId}` };
  for (const [id, path] of [
    [ids.docs, 'docs/guide.md'],
    [ids.src, 'src/app.ts'],
  ] as const) {
    await createApproval(pool, {
      approvalId: id,
      jobId,
      workflowId,
      waitingWorkflowId: `${jobId}/L2.writer/1`,
      role: 'L2.writer',
      action: `write ${path}`,
      reason: 'the plan says so',
      request: {
        action: `write ${path}`,
        reason: 'the plan says so',
        role: 'L2.writer',
        paths: [path],
        cost_usd: 0.1,
        branch: null,
      },
      decided: { decision: 'approve', decidedBy: 'u-ana' },
    });
  }
  return ids;
}

test('an admin edits a project policy: a mistake is refused under the editor, the fix is saved, the dry run decides per approval', async () => {
  await createProject(stack.infra.db.pool, { name: 'Docs site', slug: 'docs-site', orgId: CONSOLE_ORG });
  const approvals = await seedApprovals('docs-site');
  const o = await stack.openAs(ADMIN, '/admin');
  opened.push(o);
  const { page, problems } = o;

  // Reached from where project settings live: the project's row on the admin page.
  await page.getByRole('link', { name: 'Approval policy of project Docs site (docs-site)' }).click();
  await page.getByRole('heading', { level: 1, name: `Approval policy · ${CONSOLE_ORG} / docs-site` }).waitFor();
  await page.getByTestId('policy-current').getByText('No policy').waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  // A rule id with capitals and a misspelt condition: both issues listed under the editor, nothing stored.
  const editor = page.getByLabel('Policy (YAML)');
  await editor.fill(
    'rules:\n  - id: Cheap-Docs\n    when: { max_cost: 1, paths_under: [docs/] }\n    decide: approve\n',
  );
  await page.getByRole('button', { name: 'Save policy' }).click();
  const refusal = page.getByRole('alert');
  await refusal.getByText('The policy was refused:').waitFor();
  const issues = await refusal.getByRole('listitem').allInnerTexts();
  expect(issues).toEqual([
    expect.stringMatching(/^rules\.0\.id: lowercase letters/),
    expect.stringMatching(/^rules\.0\.when: .*max_cost/),
  ]);
  expect(await editor.getAttribute('aria-invalid')).toBe('true');
  await page.screenshot({ path: `${SHOTS}/1-refused.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  const stored = await stack.infra.db.pool.query('SELECT 1 FROM approval_policies WHERE project_slug = $1', [
    'docs-site',
  ]);
  expect(stored.rowCount).toBe(0);

  // Fixed: saved, and the page says who set it; the history lists the change.
  await editor.fill(
    '# cheap documentation edits need nobody\nrules:\n  - id: cheap-docs\n    when: { max_cost_usd: 1, paths_under: [docs/] }\n    decide: approve\n',
  );
  await page.getByRole('button', { name: 'Save policy' }).click();
  await page.getByRole('status').getByText('Policy of docs-site saved.').waitFor();
  expect(await page.getByRole('alert').count()).toBe(0);
  await page.getByTestId('policy-current').getByText(`Current policy set by ${ADMIN}`).waitFor();
  const history = page.getByRole('region', { name: 'History' });
  await history.getByRole('cell', { name: 'set', exact: true }).waitFor();
  // Named as the console names people: by name, else email.
  await history.getByRole('cell', { name: ADMIN, exact: true }).waitFor();

  // The dry run: per approval, what the policy would decide and the rule that decided.
  await page.getByLabel('Last approvals').fill('10');
  await page.getByRole('button', { name: 'Dry run' }).click();
  const dryRun = page.getByTestId('dry-run');
  await dryRun
    .getByRole('status')
    .getByText('Of the last 2 approvals, this policy would approve 1, reject 0 and leave 1 to a person.')
    .waitFor();
  const docsRow = dryRun.locator(`tr[data-approval="${approvals.docs}"]`);
  const srcRow = dryRun.locator(`tr[data-approval="${approvals.src}"]`);
  const cells = async (row: typeof docsRow) => (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim());
  const docsCells = await eventually(async () => ((await docsRow.count()) === 1 ? cells(docsRow) : undefined), {
    what: 'the docs approval in the dry run',
  });
  expect(docsCells.slice(-2)).toEqual(['approve', 'cheap-docs']);
  expect((await cells(srcRow)).slice(-2)).toEqual(['ask a person', '—']);
  expect(await docsRow.getByRole('rowheader').innerText()).toBe('write docs/guide.md');
  await page.screenshot({ path: `${SHOTS}/2-dry-run.png`, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  const { rows } = await stack.infra.db.pool.query<{ policy: unknown; policy_yaml: string }>(
    'SELECT policy, policy_yaml FROM approval_policies WHERE project_slug = $1',
    ['docs-site'],
  );
  expect(rows[0]?.policy_yaml).toMatch(/^# cheap documentation edits need nobody/);
  expect(problems).toEqual([]);
});

test("the workflow settings dialog shows the workflow's follow-up policy", async () => {
  const user = await stack.createUser({ email: 'follower@example.test' });
  const seeded = await seedWorkflow(stack.infra.db.pool, {
    createdBy: user.id,
    status: 'completed',
    updatedAt: new Date(),
  });
  await stack.infra.db.pool.query(`UPDATE workflows SET follow_up_policy = 'enqueue' WHERE workflow_id = $1`, [
    seeded.workflowId,
  ]);
  const o = await stack.openAs('follower@example.test', '/workflows');
  opened.push(o);
  const { page, problems } = o;
  const row = page.locator(`li[data-workflow-id="${seeded.workflowId}"]`);
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('button', { name: 'Rename…' }).click();
  const dialog = page.getByRole('dialog', { name: `Rename ${seeded.workflowId}` });
  const select = dialog.getByLabel('When a prompt arrives while a job runs');
  await eventually(async () => (await select.inputValue()) === 'enqueue', { what: 'the enqueue policy selected' });
  await page.screenshot({ path: `${SHOTS}/3-follow-up-policy.png` });
  expect(problems).toEqual([]);
});

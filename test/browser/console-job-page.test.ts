import type { Page } from 'playwright-core';
import { seriousViolations } from './axe';
import { startBrowserStack, type BrowserStack, type OpenedPage } from './stack';
import { submitFromNewRun, timelineRow } from './console-actions';

/**
 * The job page's second pass (issue 31, items 2 and 4), in Chromium against the real stack and the offline demo model:
 * the step drawer (by click and by deep link), a readable row for every known event kind of a `#build` job, and a
 * cancel that is confirmed and ends neutral, naming who, with no level left running.
 */
const EMAIL = 'drawer@example.test';
let stack: BrowserStack;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack();
  await stack.createUser({ email: EMAIL });
}, 180_000);

afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

async function openAs(path: string) {
  const o = await stack.openAs(EMAIL, path);
  opened.push(o);
  return o;
}

const submit = (page: Page, prompt: string) => submitFromNewRun(page, stack.consoleUrl, prompt);

/**
 * Every timeline row's kind and text, scrolled through top to bottom: the timeline renders only the rows in view.
 */
interface Row {
  kind: string;
  sequence: number;
  text: string;
  unknown: boolean;
}

async function allRows(page: Page): Promise<Row[]> {
  await page.getByLabel('Follow newest').uncheck();
  // A string, evaluated in the page: this project's TypeScript has no DOM types.
  return page.evaluate<Row[]>(`(async () => {
    const box = document.querySelector('.timeline');
    const rows = new Map();
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (let top = 0; ; top += Math.max(40, box.clientHeight / 2)) {
      box.scrollTop = top;
      await frame();
      for (const li of box.querySelectorAll('li[data-sequence]')) {
        const sequence = Number(li.dataset.sequence);
        rows.set(sequence, { kind: li.dataset.kind, sequence, text: li.innerText, unknown: li.classList.contains('kind-unknown') });
      }
      if (top >= box.scrollHeight) break;
    }
    return [...rows.values()].sort((a, b) => a.sequence - b.sequence);
  })()`);
}

test("an executor's step opens from the level tree and by deep link: the prompt as sent, its tool call, its tokens", async () => {
  const { page, problems } = await openAs('/runs/new');
  // The stream's first answer is held: until it arrives the page says "connecting", not "reconnecting".
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/jobs/*/stream', async (route) => {
    await released;
    await route.continue();
  });
  const jobId = await submit(page, 'Write drawer.md that greets the reader');
  await page.locator('.facts dd').getByText('connecting…', { exact: true }).waitFor();
  expect(await page.getByText(/reconnecting/).count()).toBe(0);
  release();
  await timelineRow(page, 'final').waitFor();
  await page.getByTestId('job-prompt').getByText('Write drawer.md that greets the reader').waitFor();
  expect(await page.getByTestId('job-tokens').innerText()).toMatch(/^\d[\d,]* \(\d[\d,]* prompt, \d[\d,]* completion/);
  // Cost is said once in the header; no "Cost so far" row repeats after every level.
  expect(
    await page
      .locator('.timeline')
      .getByText(/Cost so far/)
      .count(),
  ).toBe(0);

  const executor = page.locator('.run[data-role="L4.executor"]').first();
  const open = executor.getByRole('link', { name: /L4\.executor/ });
  await open.click();
  const levelId = `${jobId}/L4.executor/1`;
  expect(new URL(page.url()).searchParams.get('step')).toBe(levelId);
  const drawer = page.getByRole('dialog', { name: /L4\.executor/ });
  await drawer.getByRole('heading', { name: 'Prompt as sent' }).waitFor();
  await drawer
    .getByRole('region', { name: 'Prompt as sent' })
    .getByText(/drawer\.md/)
    .first()
    .waitFor();
  const call = drawer.getByRole('list', { name: 'Tool calls' }).first().locator('li').first();
  await call.getByText('write_file').waitFor();
  expect(await call.locator('pre').first().innerText()).toContain('"path": "drawer.md"');
  expect(await drawer.getByTestId('step-tokens').innerText()).toMatch(/^\d+ prompt · \d+ completion · \d+ reasoning/);
  expect(
    await drawer
      .getByText(/answered by/)
      .first()
      .innerText(),
  ).toMatch(/answered by \S+/);
  expect(await seriousViolations(page)).toEqual([]);

  // Escape closes it, drops the parameter and gives focus back to the link that opened it.
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
  expect(new URL(page.url()).searchParams.has('step')).toBe(false);
  expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toContain('L4.executor');

  // A timeline row opens whole in the drawer, and names the run it belongs to.
  await timelineRow(page, 'level_finished').last().getByRole('link').click();
  const row = page.getByRole('dialog', { name: /Level run finished/ });
  await row.getByRole('link', { name: /^L[1-4]\./ }).waitFor();
  expect(new URL(page.url()).searchParams.get('event')).toMatch(/^\d+$/);
  await row.getByRole('button', { name: 'Close' }).click();
  await row.waitFor({ state: 'detached' });

  // The deep link, in a new tab: the drawer is open on arrival.
  const other = await page.context().newPage();
  await other.goto(`${stack.consoleUrl}/jobs/${encodeURIComponent(jobId)}?step=${encodeURIComponent(levelId)}`);
  const linked = other.getByRole('dialog', { name: /L4\.executor/ });
  await linked.getByRole('list', { name: 'Tool calls' }).first().getByText('write_file').waitFor();
  await other.close();
  expect(problems).toEqual([]);
});

test('a #build job: every row of a known kind reads as a sentence, and its cancel is confirmed and neutral', async () => {
  const { page, problems } = await openAs('/runs/new');
  const jobId = await submit(page, 'Build a landing page for a bakery #build');
  // The deploy has no Vercel token on this stack: the job waits on a person's task, with its release step open.
  await timelineRow(page, 'human_task_assigned').waitFor({ timeout: 180_000 });
  // The task is the submitter's, named as people are everywhere (the payload holds their user id).
  await timelineRow(page, 'human_task_assigned').getByText(`Task for ${EMAIL}:`).waitFor();

  const rows = await allRows(page);
  const kinds = new Set(rows.map((r) => r.kind));
  for (const kind of [
    'scope_checked',
    'clarify_checked',
    'solutions_resolved',
    'template_selected',
    'template_scaffolded',
    'design_selected',
    'design_applied',
    'build_verify_started',
    'build_verify_passed',
    'verifier_finished',
    'gate_decision',
    'vercel_deploy_failed',
    'human_task_assigned',
    'ui_action',
  ]) {
    expect(kinds).toContain(kind);
  }
  expect(rows.filter((r) => r.unknown)).toEqual([]);
  expect(rows.filter((r) => r.text.includes('{"'))).toEqual([]);
  // Lifecycle and cost rows are folded into their level runs.
  expect([...kinds].filter((k) => ['node_started', 'node_finished', 'budget_consumed'].includes(k))).toEqual([]);
  // The product build's prelude, builds and release are runs of the level tree.
  await page.locator('.run[data-role="L1.team_lead"]').getByText('prelude').first().waitFor();
  await page.locator('.run[data-role="L3.build_verifier"]').getByText('build 1').first().waitFor();
  await page.locator('.run[data-role="L2.release_manager"][data-state="running"]').waitFor();

  // Cancel asks first; "Keep running" leaves the job alone.
  await page.getByRole('button', { name: 'Cancel job' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel this job?' });
  expect(await seriousViolations(page)).toEqual([]);
  await confirm.getByRole('button', { name: 'Keep running' }).click();
  await confirm.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Cancel job' }).click();
  await confirm.getByRole('button', { name: 'Yes, cancel the job' }).click();

  await page.getByRole('heading', { name: `Cancelled by you (${EMAIL})` }).waitFor();
  await page.locator('.page-head .badge').getByText('cancelled').waitFor();
  await timelineRow(page, 'error').getByText('Cancelled', { exact: true }).waitFor();
  expect(await page.getByText('Ended with an error').count()).toBe(0);
  expect(await page.getByText(/Failed: cancelled/).count()).toBe(0);
  expect(await page.locator('.run[data-state="running"]').count()).toBe(0);
  await page.locator('.run[data-role="L2.release_manager"][data-state="cancelled"]').waitFor();
  // The run graph uses the same word, and the cancel's timeline row is not painted as a failure.
  expect(await page.locator('.run-graph [data-state="running"]').count()).toBe(0);
  await page.locator('.run-graph [data-state="cancelled"]').first().waitFor();
  expect(await timelineRow(page, 'error').getAttribute('class')).not.toMatch(/\btone-bad\b/);
  const { rows: stored } = await stack.infra.db.pool.query<{ status: string }>(
    'SELECT status FROM job_runs WHERE job_id = $1',
    [jobId],
  );
  expect(stored[0]!.status).toBe('cancelled');
  expect(problems).toEqual([]);
});

test('a #build job whose deploy failed ends "completed with warnings", not a green completed', async () => {
  const { page, problems } = await openAs('/runs/new');
  const jobId = await submit(page, 'Build a landing page for a bakery #build');
  await timelineRow(page, 'human_task_assigned').waitFor({ timeout: 180_000 });
  // Someone marks the task done without adding the token (over the API, as a script would): the deploy fails again.
  const { rows } = await stack.infra.db.pool.query<{ task_id: string }>(
    'SELECT task_id FROM human_tasks WHERE job_id = $1',
    [jobId],
  );
  const done = await fetch(`${stack.keel.baseUrl}/v1/human-tasks/${rows[0]!.task_id}/complete`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ note: 'done' }),
  });
  expect(done.status).toBe(200);
  await timelineRow(page, 'final').waitFor();
  const outcome = page.getByRole('region', { name: 'Completed with warnings' });
  await outcome.getByText(/^The deploy failed: /).waitFor();
  await page.locator('.page-head .badge').getByText('completed with warnings').waitFor();
  expect(await page.getByRole('heading', { name: 'Result' }).count()).toBe(0);
  expect(await page.locator('.run[data-state="running"]').count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

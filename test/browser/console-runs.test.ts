import type { Page } from 'playwright-core';
import { seriousViolations } from './axe';
import { CONSOLE_ORG, startBrowserStack, type BrowserStack, type OpenedPage } from './stack';
import { submitFromNewRun } from './console-actions';

/**
 * Runs that say what they were, in Debian's Chromium against the real stack and the offline demo model: the run
 * list's titles, server-side search and status filter over 45 workflows, renaming from a row's menu, the job page's
 * live run graph, and the workflow page's graph (fitted to its panel, its steps opening the job page's step).
 */
let stack: BrowserStack;
const opened: OpenedPage[] = [];
let owner: { id: string };

beforeAll(async () => {
  stack = await startBrowserStack();
  owner = await stack.createUser({ email: 'runs@example.test' });
}, 180_000);

afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

async function openAs(path: string, options: Parameters<BrowserStack['open']>[1] = {}) {
  const o = await stack.openAs('runs@example.test', path, options);
  opened.push(o);
  return o;
}

let seeded = 0;

/** A workflow with one prompt and one job of `status`, written straight into the ingest schema (no job runs). */
async function seedRun(prompt: string, status: string, at: Date): Promise<string> {
  seeded += 1;
  const pool = stack.infra.db.pool;
  // From the API's own sequences, so a job submitted by an earlier test never holds the id a seed would take.
  const { rows: next } = await pool.query<{ workflow: string; prompt: string }>(
    `SELECT nextval('workflow_id_seq') AS workflow, nextval('prompt_id_seq') AS prompt`,
  );
  const id = `wf-${next[0]!.workflow}`;
  const promptId = `pt-${next[0]!.prompt}`;
  await pool.query(
    `INSERT INTO workflows (workflow_id, created_by, org_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`,
    [id, owner.id, CONSOLE_ORG, at],
  );
  await pool.query(`INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, $3, $4)`, [
    promptId,
    id,
    prompt,
    owner.id,
  ]);
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue, cost_usd,
                           created_at, started_at, finished_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'seeded', 0.0125, $7::timestamptz, $7::timestamptz,
             CASE WHEN $4 IN ('completed', 'failed', 'cancelled') THEN $7::timestamptz + interval '42 seconds' END)`,
    [`job-runs-${seeded}`, id, promptId, status, owner.id, CONSOLE_ORG, at],
  );
  return id;
}

const rows = (page: Page) => page.getByRole('list', { name: 'Workflows' }).locator('li');

/** The list once it has settled: the end-of-list line says how many rows the server found. */
async function endOfList(page: Page, count: number, noun = count === 1 ? 'workflow' : 'workflows') {
  await page.getByText(`End of the list (${count} ${noun}).`, { exact: true }).waitFor();
}

async function scrollToEnd(page: Page) {
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
}

const submit = (page: Page, prompt: string) => submitFromNewRun(page, stack.consoleUrl, prompt);

test('45 workflows: titles and columns, a server-side search and status filter, paged to the end', async () => {
  const base = Date.now() - 3_600_000;
  const statuses = ['completed', 'running', 'failed'];
  for (let i = 0; i < 45; i += 1) {
    // Every fifth prompt mentions invoices; the titles are the prompts' first lines.
    const topic = i % 5 === 0 ? `Reconcile the invoices of batch ${i}` : `Write note ${i}.md`;
    await seedRun(`${topic}\nwith a second line that is not the title`, statuses[i % 3]!, new Date(base + i * 1000));
  }
  const { page, problems, failedLoads } = await openAs('/workflows');
  await rows(page).first().waitFor();
  for (const name of ['Title', 'Status', 'Created by', 'Started', 'Duration', 'Cost']) {
    await page.locator('.runs-head').getByText(name, { exact: true }).waitFor();
  }
  const newest = rows(page).first();
  await newest.getByRole('link', { name: 'Write note 44.md', exact: true }).waitFor();
  expect(await newest.innerText()).toMatch(/failed[\s\S]*you[\s\S]*42\.0 s[\s\S]*\$0\.01/);
  // No filled button on the row: its actions are in a menu.
  expect(await newest.getByRole('button', { name: 'Hide' }).count()).toBe(0);

  // The search goes to the server (all 9 invoice runs, though only 20 rows were loaded), and pages with its cursor.
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/workflows?')) requests.push(r.url());
  });
  await page.getByLabel('Search').fill('INVOICES');
  await endOfList(page, 9);
  expect(requests.some((u) => new URL(u).searchParams.get('q') === 'INVOICES')).toBe(true);
  expect(await rows(page).allInnerTexts()).toHaveLength(9);
  for (const text of await rows(page).allInnerTexts()) expect(text).toMatch(/Reconcile the invoices/);
  expect(new URL(page.url()).searchParams.get('q')).toBe('INVOICES');

  // A status narrows the search: invoices of running runs (i = 10, 25, 40 → i % 3 === 1: 10, 25, 40).
  await page.getByLabel('Status').selectOption('running');
  await endOfList(page, 3);
  expect(await rows(page).allInnerTexts()).toHaveLength(3);

  // A search with more matches than a page pages through the server's cursor: 36 notes of 45 runs. The first page
  // (20 rows) and the next may land within one of the browser's frames, so the test waits for the first page's
  // answer, not for a frame that shows exactly 20 rows.
  await page.getByLabel('Status').selectOption('');
  const firstNotes = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return (
      url.pathname === '/api/v1/workflows' && url.searchParams.get('q') === 'note' && !url.searchParams.has('cursor')
    );
  });
  await page.getByLabel('Search').fill('note');
  const firstPage = await firstNotes;
  expect(firstPage.status()).toBe(200);
  expect(new URL(firstPage.url()).searchParams.get('limit')).toBe('20');
  expect(((await firstPage.json()) as { workflows: unknown[] }).workflows).toHaveLength(20);
  await page.locator('li[aria-setsize="20"], li[aria-setsize="36"]').first().waitFor();
  await scrollToEnd(page);
  await page.locator('li[aria-setsize="36"]').first().waitFor();
  await endOfList(page, 36);
  const paged = requests.filter((u) => new URL(u).searchParams.has('cursor'));
  expect(paged.every((u) => new URL(u).searchParams.get('q') === 'note')).toBe(true);
  expect(paged.length).toBeGreaterThan(0);

  // Nothing found says so, and a wildcard is a plain character.
  await page.getByLabel('Search').fill('100%');
  await page.getByText('No workflows matching “100%”.').waitFor();

  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
  expect(failedLoads).toEqual([]);
});

test('a workflow renamed from its row menu keeps its title in the list, on reload and in a search', async () => {
  const id = await seedRun('Draft the quarterly letter', 'completed', new Date());
  const { page, problems } = await openAs('/workflows');
  const row = page.locator(`li[data-workflow-id="${id}"]`);
  await row.getByRole('link', { name: 'Draft the quarterly letter' }).waitFor();
  await row.getByRole('button', { name: 'Actions for Draft the quarterly letter' }).click();
  await page.getByRole('button', { name: 'Rename…' }).click();
  const dialog = page.getByRole('dialog', { name: `Rename ${id}` });
  const field = dialog.getByLabel('Title');
  await field.fill('   ');
  await dialog.getByRole('button', { name: 'Save title' }).click();
  await dialog
    .getByRole('alert')
    .getByText(/cannot be blank/)
    .waitFor();
  await field.fill('Q3 letter to partners');
  await dialog.getByRole('button', { name: 'Save title' }).click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByRole('link', { name: 'Q3 letter to partners' }).waitFor();

  await page.reload();
  await row.getByRole('link', { name: 'Q3 letter to partners' }).waitFor();
  await page.getByLabel('Search').fill('partners');
  await endOfList(page, 1);
  const { rows: stored } = await stack.infra.db.pool.query<{ title: string }>(
    'SELECT title FROM workflows WHERE workflow_id = $1',
    [id],
  );
  expect(stored[0]!.title).toBe('Q3 letter to partners');

  // The workflow page shows it too, and can put the prompt's line back.
  await row.getByRole('link', { name: 'Q3 letter to partners' }).click();
  await page.getByRole('heading', { level: 1, name: /Q3 letter to partners/ }).waitFor();
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('button', { name: 'Use the prompt’s first line' }).click();
  await page.getByRole('heading', { level: 1, name: /Draft the quarterly letter/ }).waitFor();
  expect(problems).toEqual([]);
});

test('the job page’s run graph grows and changes state as the job’s events arrive, and its steps open ?step=', async () => {
  const { page, problems } = await openAs('/runs/new');
  const jobId = await submit(page, 'Write graph.md that greets the reader #slow');
  const graph = page.locator('svg.run-graph');
  const steps = graph.locator('a.run-step');
  // While the job runs (each level pauses under #slow), a step is running, and the graph gains steps.
  await graph.locator('a.run-step[data-state="running"]').first().waitFor();
  const seen = await steps.count();
  const running = await graph.locator('a.run-step[data-state="running"]').first().getAttribute('data-step-id');
  // The next event batches finish that step and start the next ones.
  await graph.locator(`a.run-step[data-step-id="${running}"][data-state="ok"]`).waitFor({ timeout: 90_000 });
  await steps.nth(seen).waitFor({ timeout: 90_000 });
  await page.locator('.run-graph-panel[data-live="false"]').waitFor({ timeout: 90_000 });
  expect(await graph.locator('a.run-step:not([data-state="ok"])').count()).toBe(0);
  const levelIds: (string | null)[] = [];
  for (let i = 0; i < (await steps.count()); i++) levelIds.push(await steps.nth(i).getAttribute('data-step-id'));
  expect(levelIds.length).toBeGreaterThan(seen);
  for (const id of levelIds) expect(id).toMatch(new RegExp(`^${jobId}/L[1-4]\\.`));

  // A step is a link to the page's own step drawer.
  await steps.first().click();
  await page.waitForURL((url) => url.searchParams.get('step') === levelIds[0]);
  expect(new URL(page.url()).pathname).toBe(`/jobs/${jobId}`);
  await graph.locator(`a.run-step[aria-current="step"]`).waitFor();
  expect(problems).toEqual([]);
});

test('the workflow page names the scenario its job ran, fits its graphs to the panel, and a step opens the job page', async () => {
  const { page, problems } = await openAs('/runs/new');
  const jobId = await submit(page, 'Write fit.md that greets the reader');
  await page.locator('.run-graph-panel[data-live="false"]').waitFor({ timeout: 90_000 });
  const workflowId = await workflowOf(jobId);

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.consoleUrl}/workflows/${workflowId}`);
    await page.getByRole('heading', { level: 1, name: /Write fit\.md that greets the reader/ }).waitFor();
    const graph = page.locator('#run-graph-title ~ svg.run-graph');
    await graph.locator('a.run-step').first().waitFor();
    await page.locator('.graph-fit svg').waitFor();
    const runGraph = (await graph.boundingBox())!;
    const runPanel = (await page.locator('section[aria-labelledby="run-graph-title"]').boundingBox())!;
    const agentGraph = (await page.locator('.graph-fit svg').boundingBox())!;
    const agentPanel = (await page.locator('.graph-fit').boundingBox())!;
    expect(runGraph.width).toBeGreaterThan(0);
    expect(runGraph.x + runGraph.width).toBeLessThanOrEqual(runPanel.x + runPanel.width);
    expect(agentGraph.x + agentGraph.width).toBeLessThanOrEqual(agentPanel.x + agentPanel.width);
    expect(runPanel.x + runPanel.width).toBeLessThanOrEqual(viewport.width);
  }
  await page.locator('.facts').getByText('build', { exact: true }).waitFor();

  const first = page.locator('#run-graph-title ~ svg.run-graph a.run-step').first();
  const levelId = await first.getAttribute('data-step-id');
  await first.click();
  await page.waitForURL((url) => url.pathname === `/jobs/${jobId}` && url.searchParams.get('step') === levelId);
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('a #build workflow is named for the product scenario its job runs', async () => {
  const { page, problems } = await openAs('/runs/new');
  const jobId = await submit(page, 'A landing page for a bakery #build #slow');
  // The scenario is recorded at submission; the build itself is not what this test is about.
  const cancelled = await page.request.post(`${stack.consoleUrl}/api/v1/jobs/${jobId}/cancel`, {
    data: {},
    headers: { origin: stack.consoleUrl },
  });
  expect(cancelled.status()).toBe(202);
  await page.goto(`${stack.consoleUrl}/workflows/${await workflowOf(jobId)}`);
  await page.locator('.facts').getByText('product', { exact: true }).waitFor();
  await page.getByText(/the product scenario, not edited yet/).waitFor();
  expect(problems).toEqual([]);
});

async function workflowOf(jobId: string): Promise<string> {
  const { rows: found } = await stack.infra.db.pool.query<{ workflow_id: string }>(
    'SELECT workflow_id FROM job_runs WHERE job_id = $1',
    [jobId],
  );
  return found[0]!.workflow_id;
}

test('an admin’s run list names who created each run by email, never by user id', async () => {
  await stack.createUser({ email: 'lead@example.test', role: 'admin' });
  await seedRun('Summarise the quarterly board pack', 'completed', new Date());
  const o = await stack.openAs('lead@example.test', `/workflows?q=${encodeURIComponent('quarterly board pack')}`);
  opened.push(o);
  await endOfList(o.page, 1);
  const row = rows(o.page).first();
  // The cell holds its label for the card layout too, so the email is looked for in the row's text.
  await rows(o.page).filter({ hasText: 'runs@example.test' }).first().waitFor();
  expect(await row.innerText()).not.toContain(owner.id);
});

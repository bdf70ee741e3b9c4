import type { Page } from 'playwright-core';
import { seriousViolations } from './axe';
import { startBrowserStack, type BrowserStack, type OpenedPage } from './stack';
import { submitFromNewRun, timelineRow } from './console-actions';

/**
 * Watching and steering jobs in the console, in Debian's Chromium against the real stack and the offline demo model:
 * submit, the live timeline and its reconnects, files, questions, approvals, cancel, and the workflow page.
 */
let stack: BrowserStack;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack();
  await stack.createUser({ email: 'runner@example.test' });
}, 180_000);

// A test's pages close with it: a page left open keeps its streams and timers running, and Chromium repainting pages
// nobody looks at was a good part of the browser's CPU through the rest of the file.
afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

async function openAs(path: string) {
  const o = await stack.openAs('runner@example.test', path);
  opened.push(o);
  return o;
}

const submit = (page: Page, prompt: string, budget?: RegExp) =>
  submitFromNewRun(page, stack.consoleUrl, prompt, budget);

async function storedEvents(jobId: string): Promise<number> {
  const { rows } = await stack.infra.db.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM job_events WHERE job_id = $1',
    [jobId],
  );
  return Number(rows[0]!.n);
}

/** The timeline's own count ("N events") once the job has ended. */
async function shownEvents(page: Page): Promise<number> {
  const text = await page.locator('.timeline-head .hint').innerText();
  return Number(/^(\d+) event/.exec(text)![1]);
}

test('a Frontier run submitted with the keyboard alone goes to its job page, reaches final, and its file opens', async () => {
  const { page, problems } = await openAs('/runs/new');
  await page.getByLabel('What should the team do?').focus();
  await page.keyboard.type('Write hello.md that greets the reader');
  await page.keyboard.press('Tab'); // project
  await page.keyboard.press('Tab'); // the compute budget radio group, on its checked choice
  expect(await page.evaluate<string | null>('document.activeElement.getAttribute("value")')).toBe('cheap');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab'); // scenario
  await page.keyboard.press('Tab'); // Start run
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/jobs\/job-/);
  const jobId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await page.getByTestId('model-tier').getByText('frontier').waitFor();
  const { rows } = await stack.infra.db.pool.query<{ model_tier: string }>(
    'SELECT model_tier FROM job_runs WHERE job_id = $1',
    [jobId],
  );
  expect(rows[0]!.model_tier).toBe('frontier');

  await timelineRow(page, 'final').waitFor({ timeout: 60_000 });
  await page.getByRole('heading', { name: 'Result' }).waitFor();
  // The level tree shows the model that answered the executor.
  await page
    .locator('.run[data-role="L4.executor"]')
    .first()
    .getByText(/answered by/)
    .waitFor();

  await page.getByRole('link', { name: 'hello.md', exact: true }).click();
  const viewer = page.getByRole('region', { name: 'hello.md' });
  await viewer.locator('.markdown-body').getByText(/hello/i).first().waitFor();
  expect(await shownEvents(page)).toBe(await storedEvents(jobId));
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('a reload mid-run and a dropped connection never show an event twice; the stream resumes with Last-Event-ID', async () => {
  const { page, problems } = await openAs('/runs/new');
  const resumedFrom: string[] = [];
  page.on('request', (request) => {
    const header = request.headers()['last-event-id'];
    if (request.url().endsWith('/stream') && header) resumedFrom.push(header);
  });
  const jobId = await submit(page, 'Write slow.md that greets the reader #slow');
  await timelineRow(page, 'level_started').first().waitFor({ timeout: 30_000 });
  await page.reload();
  await timelineRow(page, 'level_started').first().waitFor();

  // Drop every connection to the console: the page reconnects and asks only for what it has not seen.
  await timelineRow(page, 'routing_decision').nth(1).waitFor({ timeout: 30_000 });
  stack.console.server.closeAllConnections();
  await timelineRow(page, 'final').waitFor({ timeout: 90_000 });

  expect(resumedFrom.length).toBeGreaterThan(0);
  expect(Number(resumedFrom[0])).toBeGreaterThan(0);
  const stored = await storedEvents(jobId);
  expect(await shownEvents(page)).toBe(stored);
  // The rows in view (the timeline renders only those): each sequence once, ending at the last stored one.
  const sequences: number[] = [];
  for (const row of await page.locator('.timeline li[data-sequence]').all()) {
    sequences.push(Number(await row.getAttribute('data-sequence')));
  }
  expect(new Set(sequences).size).toBe(sequences.length);
  expect(Math.max(...sequences)).toBe(stored);
  expect(problems).toEqual([]);
});

test('an #ask job is answered inline and finishes; the page then shows the answer and who gave it', async () => {
  const { page, problems } = await openAs('/runs/new');
  await submit(page, 'Write answer.md that greets the reader #ask');
  const waiting = page.getByRole('region', { name: 'Waiting for you' });
  await waiting.getByText(/asks:/).waitFor({ timeout: 60_000 });
  // The answer's own response is held until the stream has shown the answer, as happens on a loaded machine: the card
  // leaves with the question all the same.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/jobs/*/resume', async (route) => {
    const response = await route.fetch();
    await released;
    await route.fulfill({ response });
  });
  await waiting.getByLabel('Your answer').fill('Greet them in French');
  await waiting.getByRole('button', { name: 'Send answer' }).click();
  await waiting.waitFor({ state: 'detached', timeout: 60_000 });
  release();
  await timelineRow(page, 'final').waitFor({ timeout: 60_000 });
  // After the fact: the question, its answer and who gave it; no "the job continues" once it has ended.
  const history = page.getByRole('region', { name: 'People in the loop' });
  await history.getByText(/Answered by runner@example\.test .*Greet them in French/).waitFor();
  expect(await page.getByText('Answer sent; the job continues.').count()).toBe(0);
  expect(problems).toEqual([]);
});

test('an #approve job is approved inline; another is approved from the Needs you inbox', async () => {
  const { page, problems } = await openAs('/runs/new');
  await submit(page, 'Write approved.md that greets the reader #approve');
  const waiting = page.getByRole('region', { name: 'Waiting for you' });
  await waiting.getByRole('button', { name: /^Approve/ }).click({ timeout: 60_000 });
  await timelineRow(page, 'final').waitFor({ timeout: 60_000 });
  // The decision and its decider, by email (not a user id).
  await page
    .getByRole('region', { name: 'People in the loop' })
    .locator('li[data-kind="approval"] .said', { hasText: /approved by runner@example\.test/ })
    .waitFor();

  const second = await submit(page, 'Write listed.md that greets the reader #approve');
  await timelineRow(page, 'approval_requested').waitFor({ timeout: 60_000 });
  await page.getByRole('link', { name: /^Needs you/ }).click();
  const pending = page.locator('.inbox-item', { has: page.getByRole('link', { name: second }) });
  await pending.getByRole('button', { name: /^Approve/ }).click();
  await page
    .getByRole('region', { name: 'Done recently' })
    .locator('li', { has: page.getByRole('link', { name: second }) })
    .getByText('approved')
    .waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: second }).first().click();
  await timelineRow(page, 'final').waitFor({ timeout: 60_000 });
  expect(problems).toEqual([]);
});

test('a #slow job is cancelled from its page', async () => {
  const { page, problems } = await openAs('/runs/new');
  const jobId = await submit(page, 'Write never.md that greets the reader #slow');
  await timelineRow(page, 'level_started').first().waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel job' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this job?' })
    .getByRole('button', { name: 'Yes, cancel the job' })
    .click();
  await timelineRow(page, 'error').waitFor({ timeout: 60_000 });
  await page.getByRole('heading', { name: 'Cancelled by you (runner@example.test)' }).waitFor();
  await page.locator('.page-head .badge').getByText('cancelled').waitFor();
  const { rows } = await stack.infra.db.pool.query<{ status: string }>(
    'SELECT status FROM job_runs WHERE job_id = $1',
    [jobId],
  );
  expect(rows[0]!.status).toBe('cancelled');
  expect(problems).toEqual([]);
});

test('the workflow page shows prompts, the agent graph (edited in place) and the finished run graph', async () => {
  const { page, problems } = await openAs('/runs/new');
  const jobId = await submit(page, 'Write graph.md that greets the reader');
  await timelineRow(page, 'final').waitFor({ timeout: 60_000 });
  const workflowLink = page.locator('.facts').getByRole('link', { name: /^wf-/ });
  const workflowId = await workflowLink.innerText();
  await workflowLink.click();
  await page.getByRole('heading', { name: `Workflow ${workflowId}` }).waitFor();
  // The first prompt is the workflow's title (in the heading) and the first of its prompts.
  await page.locator('.prompt-text').getByText('Write graph.md that greets the reader').waitFor();
  await page.getByRole('img', { name: `Agent graph of ${workflowId}` }).waitFor();
  await page.getByRole('link', { name: jobId }).first().waitFor();
  // The run graph's steps are links, so it is a group of them rather than one image.
  await page.getByRole('group', { name: `What the last finished job of ${workflowId} ran` }).waitFor();

  await page.getByLabel('Role').fill('L2.security_lead');
  await page.getByLabel('Brief').fill('Check the files for secrets.');
  await page.getByRole('button', { name: 'Save agent' }).click();
  await page.getByText(/Version 1 \(edited\)/).waitFor();
  await page
    .getByText(/L2\.security_lead/)
    .first()
    .waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Add a prompt').fill('Now write bye.md that says goodbye');
  await page.getByRole('button', { name: 'Add prompt' }).click();
  await page
    .getByRole('status')
    .getByText(/Started a new job|Delivered to the running job/)
    .waitFor();
  expect(problems).toEqual([]);
});

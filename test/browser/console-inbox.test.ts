import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { eventually } from '../integration/eventually';
import { seriousViolations } from './axe';
import { startBrowserStack, type BrowserStack, type OpenedPage } from './stack';
import { submitFromNewRun, timelineRow } from './console-actions';

/**
 * The "Needs you" inbox and the job page's people in the loop, in Debian's Chromium against the real stack (the
 * offline demo model, product builds deploying to a local Vercel): a question, an approval and a human task waiting
 * together, each answered from the inbox while the nav count follows without a reload; a `#build` job finished through
 * its human task on its own page.
 */
let stack: BrowserStack;
const opened: OpenedPage[] = [];
const EMAIL = 'inbox@example.test';

beforeAll(async () => {
  stack = await startBrowserStack({ products: true });
  await stack.createUser({ email: EMAIL });
}, 180_000);

afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

async function openAs(pagePath: string) {
  const o = await stack.openAs(EMAIL, pagePath);
  opened.push(o);
  return o;
}

const submit = (page: Page, prompt: string) => submitFromNewRun(page, stack.consoleUrl, prompt);

/** The nav's count, read as a person reads it (the digits, without the screen-reader words around them). */
const navCount = (page: Page) => page.getByTestId('needs-you-count');
const waitForCount = (page: Page, count: number) =>
  navCount(page)
    .filter({ hasText: new RegExp(`^:? ?${count} ?(waiting)?$`) })
    .waitFor({ timeout: 90_000 });

/** The token the release asks for, put where the secrets store reads it: what "Add the Vercel token" means. */
async function addVercelToken(): Promise<void> {
  const products = stack.products!;
  await fs.writeFile(path.join(products.secretsDir, 'VERCEL_TOKEN'), `${products.vercel.token}\n`);
}

/** Each test starts with no token, so its release assigns the task. */
beforeEach(async () => {
  await fs.rm(path.join(stack.products!.secretsDir, 'VERCEL_TOKEN'), { force: true });
});

async function jobStatus(jobId: string): Promise<string> {
  const { rows } = await stack.infra.db.pool.query<{ status: string }>(
    'SELECT status FROM job_runs WHERE job_id = $1',
    [jobId],
  );
  return rows[0]!.status;
}

test('a question, an approval and a human task wait in one inbox, each answered there, the nav count following live', async () => {
  const { page: inbox, problems } = await openAs('/inbox');
  await inbox.getByRole('heading', { name: 'Needs you', level: 1 }).waitFor();
  await inbox.getByText('Nothing waits for you.').waitFor();
  await waitForCount(inbox, 0);

  // Another tab starts the three jobs; the inbox tab is never reloaded.
  const { page: runner } = await openAs('/runs/new');
  const asking = await submit(runner, 'Write asked.md that greets the reader #ask');
  await waitForCount(inbox, 1);
  const approving = await submit(runner, 'Write approved.md that greets the reader #approve');
  await waitForCount(inbox, 2);
  const building = await submit(runner, 'Build a landing page for a bakery #build');
  await waitForCount(inbox, 3);

  const item = (jobId: string) => inbox.locator('.inbox-item', { has: inbox.getByRole('link', { name: jobId }) });
  await item(asking).getByText(/asks:/).waitFor();
  await item(approving)
    .getByText(/asks to/)
    .waitFor();
  await item(building)
    .getByRole('heading', { name: /Add the Vercel token/ })
    .waitFor();
  expect(await seriousViolations(inbox)).toEqual([]);

  // Filtered by a project none of the three jobs is in: the list is empty, the nav still counts everything.
  const created = await inbox.request.post(`${stack.consoleUrl}/api/v1/projects`, {
    data: { name: 'Elsewhere', slug: 'elsewhere' },
  });
  expect(created.status()).toBe(201);
  await inbox.reload();
  await inbox.getByLabel('Project').selectOption('elsewhere');
  await inbox.waitForURL(/\/inbox\?project=elsewhere$/);
  await inbox.getByText('Nothing waits for you.').waitFor();
  await waitForCount(inbox, 3);
  await inbox.getByLabel('Project').selectOption('');
  await item(asking).waitFor();

  await item(asking).getByLabel('Your answer').fill('Greet them in French');
  await item(asking).getByRole('button', { name: 'Send answer' }).click();
  await inbox.getByText(`Answer sent; job ${asking} continues.`).waitFor();
  await waitForCount(inbox, 2);

  await item(approving)
    .getByRole('button', { name: /^Approve/ })
    .click();
  await inbox.getByText(`Approval approved; job ${approving} continues.`).waitFor();
  await waitForCount(inbox, 1);

  await item(building)
    .getByText(/Vercel/)
    .first()
    .waitFor();
  await addVercelToken();
  await item(building).getByRole('button', { name: /^Done/ }).click();
  await inbox.getByText(/Task “Add the Vercel token” done/).waitFor();
  await waitForCount(inbox, 0);

  // After the fact, the inbox says who answered, decided and did each: the signed-in person, by email.
  const recent = inbox.getByRole('region', { name: 'Done recently' });
  for (const jobId of [asking, approving, building]) {
    await recent
      .locator('li', { has: inbox.getByRole('link', { name: jobId }) })
      .getByText(new RegExp(`by ${EMAIL}`))
      .waitFor({ timeout: 60_000 });
  }
  for (const jobId of [asking, approving, building]) {
    await eventually(async () => (await jobStatus(jobId)) === 'completed', {
      what: `job ${jobId} completed after its answer`,
      timeoutMs: 120_000,
      intervalMs: 200,
    });
  }
  expect(problems).toEqual([]);
}, 300_000);

test('a #build job paused on its human task shows the task on its page, goes paused live, and Done finishes it', async () => {
  const { page, problems } = await openAs('/runs/new');
  const jobId = await submit(page, 'Build a bakery page with our opening hours #build');
  const waiting = page.getByRole('region', { name: 'Waiting for you' });
  // The task is for the person who started the job, named by email, with its instructions and a Done button.
  await waiting.getByText(`Task for ${EMAIL}: Add the Vercel token`).waitFor({ timeout: 120_000 });
  await waiting
    .locator('.instructions')
    .getByText(/Vercel/)
    .waitFor();
  // The badge follows the stream: the job waits for a person, without a reload.
  await page.locator('.page-head .badge').getByText('paused').waitFor();
  expect(await jobStatus(jobId)).toBe('paused');
  expect(await seriousViolations(page)).toEqual([]);

  await addVercelToken();
  await waiting.getByLabel('Note (optional)').fill('token added');
  await waiting.getByRole('button', { name: 'Done Add the Vercel token' }).click();
  await timelineRow(page, 'final').waitFor({ timeout: 120_000 });
  await page.locator('.page-head .badge').getByText('completed').waitFor();
  expect(await page.getByRole('region', { name: 'Waiting for you' }).count()).toBe(0);
  expect(await page.getByText(/the job continues\./).count()).toBe(0);

  // After the fact: the task, who did it (by email, not by id) and the note.
  const history = page.getByRole('region', { name: 'People in the loop' });
  await history.getByText(new RegExp(`Done by ${EMAIL}.*token added`)).waitFor();
  expect(problems).toEqual([]);
}, 300_000);

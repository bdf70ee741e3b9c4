import type { BrowserContextOptions, Page } from 'playwright-core';
import type { User } from '../../db/users';
import { khIdFor } from '../../kb/kh-id';
import { seriousViolations } from './axe';
import { seedWorkflow } from './seed';
import { HUB_DOCS, startBrowserStack, type BrowserStack, type OpenedPage } from './stack';

/**
 * The console everywhere (issue 31, item 8), in Debian's Chromium against the real stack: every page at 390×844 with
 * no sideways scroll, light and dark (the system's and the theme menu's), axe-core on each; the keyboard shortcuts and
 * their `?` overlay; a knowledge document added and edited; My budget's spend by day and by job; and a closed job tab
 * that the console does not log as a warning. One stack; one finished job serves every page that needs one.
 */
let stack: BrowserStack;
let admin: User;
let jobId: string;
let workflowId: string;
const opened: OpenedPage[] = [];
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 } };
const EMAIL = 'everywhere@example.test';

beforeAll(async () => {
  stack = await startBrowserStack();
  // An admin sees every page, the admin page included; every page below is theirs.
  admin = await stack.createUser({ email: EMAIL, role: 'admin' });
  const o = await openAs('/runs/new');
  await o.page.getByLabel('What should the team do?').fill('Write hello.md that greets the reader');
  await o.page.getByRole('button', { name: 'Start run' }).click();
  await o.page.waitForURL(/\/jobs\/job-/);
  jobId = decodeURIComponent(new URL(o.page.url()).pathname.split('/').pop()!);
  await o.page.locator('.timeline li[data-kind="final"]').waitFor({ timeout: 120_000 });
  const { rows } = await stack.infra.db.pool.query<{ workflow_id: string }>(
    'SELECT workflow_id FROM job_runs WHERE job_id = $1',
    [jobId],
  );
  workflowId = rows[0]!.workflow_id;
  await closeAll();
}, 300_000);

afterEach(closeAll);

afterAll(async () => {
  await stack?.close();
});

async function closeAll() {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
}

async function openAs(path: string, options?: BrowserContextOptions) {
  const o = await stack.openAs(EMAIL, path, options);
  opened.push(o);
  return o;
}

/** The page has drawn its heading and nothing on it is still loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1, .login h1').first().waitFor();
  // Each wait is for one loading note to go; a page may show several while its parts load.
  while ((await page.locator('.loading').count()) > 0)
    await page.locator('.loading').first().waitFor({ state: 'detached' });
}

/** How far the document is wider than the window (0 when nothing scrolls sideways). */
function overflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.scrollingElement.scrollWidth - window.innerWidth');
}

/** Every signed-in page, with what shows it is drawn. */
function pages(): Array<{ path: string; ready: (page: Page) => Promise<unknown> }> {
  const seen = (selector: string) => (page: Page) => page.locator(selector).first().waitFor();
  return [
    { path: '/runs/new', ready: (page) => page.getByLabel('What should the team do?').waitFor() },
    { path: '/workflows', ready: seen('.wf-row') },
    { path: `/workflows/${encodeURIComponent(workflowId)}`, ready: seen('main h1') },
    { path: `/jobs/${encodeURIComponent(jobId)}`, ready: seen('.timeline li[data-kind="final"]') },
    { path: '/inbox', ready: seen('main h2') },
    { path: `/knowledge?source=hub&doc=${encodeURIComponent(docId())}`, ready: seen('#node-title') },
    { path: '/models', ready: seen('table.cards tbody tr') },
    { path: '/budget', ready: seen('#by-day-title') },
    { path: '/admin', ready: seen('table.cards tbody tr') },
  ];
}

/** The kh-id of the seeded onboarding guide (a curated file's id, as the stack's seed assigns it). */
function docId(): string {
  return khIdFor(`hub:${HUB_DOCS.onboarding.path}`);
}

async function everyPageFits(page: Page, scheme: string): Promise<void> {
  const failures: string[] = [];
  for (const { path, ready } of pages()) {
    await page.goto(stack.consoleUrl + path);
    await ready(page);
    await settled(page);
    const wider = await overflow(page);
    if (wider > 0) failures.push(`${path} (${scheme}): ${wider}px wider than the window`);
    for (const v of await seriousViolations(page))
      failures.push(`${path} (${scheme}): ${v.id} ${v.targets.join(', ')}`);
  }
  expect(failures).toEqual([]);
}

test('sign-in at 390×844 fits the window, light and dark, with no serious axe violation', async () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const o = await stack.open('/login', { ...PHONE, colorScheme });
    opened.push(o);
    await o.page.getByLabel('Email', { exact: true }).waitFor();
    expect(await overflow(o.page)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(o.page)).toEqual([]);
  }
});

test('every page at 390×844 in the light scheme fits the window and passes axe', async () => {
  const { page, problems } = await openAs('/workflows', { ...PHONE, colorScheme: 'light' });
  await everyPageFits(page, 'light');
  expect(problems).toEqual([]);
});

test('every page at 390×844 in the system dark scheme fits the window and passes axe', async () => {
  const { page, problems } = await openAs('/workflows', { ...PHONE, colorScheme: 'dark' });
  // The palette follows the system setting: the page background is the dark one.
  const background = await page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
  expect(background).toBe('rgb(13, 17, 23)');
  await everyPageFits(page, 'dark');
  expect(problems).toEqual([]);
});

test('the theme menu turns a light system dark before the first paint of the next page, and back', async () => {
  const { page, problems } = await openAs('/models', { colorScheme: 'light' });
  const background = () => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
  expect(await background()).toBe('rgb(255, 255, 255)');
  await page.getByLabel('Colour theme').selectOption('dark');
  expect(await background()).toBe('rgb(13, 17, 23)');
  // A reload applies the remembered choice from /theme.js, before the app's own script has run.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.reload();
  expect(await page.evaluate<string | undefined>('document.documentElement.dataset.theme')).toBe('dark');
  expect(await background()).toBe('rgb(13, 17, 23)');
  await page.unroute('**/assets/*.js');
  await page.reload();
  await settled(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel('Colour theme').selectOption('system');
  expect(await background()).toBe('rgb(255, 255, 255)');
  expect(problems).toEqual([]);
});

test('keyboard shortcuts: ? lists them in an accessible dialog, Escape closes it, g k and n navigate, / finds search', async () => {
  const { page, problems } = await openAs('/workflows');
  await page.locator('.wf-row').first().waitFor();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await dialog.waitFor();
  await dialog.getByText('New run').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await page.waitForURL(/\/knowledge$/);
  await page.locator('#kb-search').waitFor();
  await page.keyboard.press('/');
  expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('kb-search');
  // Typed into a field, the same keys are text.
  await page.keyboard.type('gw');
  expect(new URL(page.url()).pathname).toBe('/knowledge');
  await page.locator('#kb-search').blur();
  await page.keyboard.press('n');
  await page.waitForURL(/\/runs\/new$/);
  expect(problems).toEqual([]);
});

test('a knowledge document is added and then edited from the knowledge page', async () => {
  const { page, problems } = await openAs('/knowledge');
  await page.getByRole('button', { name: 'New document' }).click();
  await page.getByLabel('Title').fill('Release checklist');
  await page.getByLabel('Tags (comma-separated)').fill('ops, release');
  await page.getByLabel('Text (Markdown)').fill('# Release checklist\n\nTag the build before the train leaves.\n');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Add document' }).click();
  await page.waitForURL(/doc=/);
  await page.locator('#node-title').getByText('Release checklist').waitFor();
  await page.locator('.sources-panel pre').getByText('Tag the build before the train leaves.').waitFor();

  await page.getByRole('button', { name: /^Edit/ }).click();
  await page.getByLabel('Text (Markdown)').fill('# Release checklist\n\nTag the build, then write the notes.\n');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('.sources-panel pre').getByText('Tag the build, then write the notes.').waitFor();
  await page
    .locator('article .hint')
    .getByText(/notes\/release-checklist\.md/)
    .waitFor();
  expect(problems).toEqual([]);
});

test("My budget shows the month's spend by day and by job, seeded spend included", async () => {
  const firstOfMonth = new Date();
  firstOfMonth.setUTCDate(1);
  firstOfMonth.setUTCHours(0, 5, 0, 0);
  const a = await seedWorkflow(stack.infra.db.pool, {
    createdBy: admin.id,
    status: 'completed',
    updatedAt: firstOfMonth,
    costUsd: 1.25,
  });
  await seedWorkflow(stack.infra.db.pool, {
    createdBy: admin.id,
    status: 'failed',
    updatedAt: firstOfMonth,
    costUsd: 0.5,
  });
  // Someone else's spend on the same day is theirs: it never shows on this page.
  const other = await stack.createUser({ email: 'someone-else@example.test' });
  const theirs = await seedWorkflow(stack.infra.db.pool, {
    createdBy: other.id,
    status: 'completed',
    updatedAt: firstOfMonth,
    costUsd: 7,
  });
  const day = firstOfMonth.toISOString().slice(0, 10);
  const { rows } = await stack.infra.db.pool.query<{ total: string }>(
    `SELECT sum(cost_usd)::text AS total FROM job_runs
      WHERE created_by = $1 AND to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') = $2`,
    [admin.id, day],
  );
  const total = Number(rows[0]!.total);

  const { page, problems } = await openAs('/budget');
  const dayRow = page.locator(`.spend-days li[data-day="${day}"]`);
  await dayRow.getByText(`$${total.toFixed(2)}`).waitFor();
  const jobRow = page.locator(`tr[data-job="${a.jobId}"]`);
  await jobRow.getByText('$1.25').waitFor();
  await jobRow.getByRole('link', { name: 'Write seed.md' }).waitFor();
  expect(await page.locator(`tr[data-job="${theirs.jobId}"]`).count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('closing the tab of a running job is not logged as a warning by the console', async () => {
  // A running job's stream is open and carrying events when the tab goes, as when a person closes it mid-run.
  const o = await openAs('/runs/new');
  await o.page.getByLabel('What should the team do?').fill('Write slow.md that greets the reader #slow');
  await o.page.getByRole('button', { name: 'Start run' }).click();
  await o.page.waitForURL(/\/jobs\/job-/);
  await o.page.locator('.timeline li[data-kind="level_started"]').first().waitFor({ timeout: 60_000 });
  const from = stack.consoleLog.length;
  await o.context.close();
  opened.splice(opened.indexOf(o), 1);
  // The console logs the end of the stream's request once it sees the tab go (a debug line, log-controller.ts).
  const ended = () => stack.consoleLog.slice(from).some((l) => /stream closed|terminated/.test(l.msg ?? ''));
  while (!ended()) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(stack.consoleLog.slice(from).filter((l) => l.level >= 40)).toEqual([]);
});

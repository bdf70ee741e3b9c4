import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { seriousViolations } from './axe';
import { seedWorkflow, setSeededStatus } from './seed';
import { createProject } from '../../db/projects';
import { CONSOLE_ORG, HUB_DOCS, signInWithForm, startBrowserStack, type BrowserStack, type OpenedPage } from './stack';

/**
 * The console's pages in Debian's Chromium against the real stack: signing in and out, the pending-approval landing,
 * the workflow list's paging and refetch cadence, refusals (402, 403, 429), the admin page, and an accessibility pass.
 */
let stack: BrowserStack;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack();
}, 180_000);

// A test's pages close with it: a page left open keeps its streams and timers running, and Chromium repainting pages
// nobody looks at was a good part of the browser's CPU through the rest of the file.
afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

async function open(path: string) {
  const o = await stack.open(path);
  opened.push(o);
  return o;
}
async function openAs(email: string, path: string, options?: BrowserContextOptions) {
  const o = await stack.openAs(email, path, options);
  opened.push(o);
  return o;
}

async function scrollToEnd(page: Page) {
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
}

test('a visitor without a session is sent to sign in, and the sign-in form is accessible', async () => {
  const { page, problems } = await open('/workflows');
  await page.waitForURL(/\/login\?next=%2Fworkflows$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Keel' }).isVisible()).resolves.toBe(true);
  await page.getByLabel('Email', { exact: true }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('a seeded password account signs in, lands where it was going, and signs out', async () => {
  await stack.createUser({ email: 'ada@example.test' });
  const { page, problems } = await openAs('ada@example.test', '/workflows');
  await page.getByText('ada@example.test').waitFor();
  await page.getByText(/No workflows yet/).waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login$/);
  await page.goto(`${stack.consoleUrl}/workflows`);
  await page.waitForURL(/\/login\?next=/);
  expect(problems).toEqual([]);
});

test('a user waiting for approval lands on the pending page', async () => {
  await stack.createUser({ email: 'newcomer@example.test', approved: false });
  const { page } = await open('/login');
  await signInWithForm(page, 'newcomer@example.test');
  await page.waitForURL(/\/pending$/);
  await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
});

/** Every list read the page makes, with the page's own clock at the moment it made it (Playwright's fake clock). */
const RECORD_LIST_FETCHES = `
  window.__listFetches = [];
  const original = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : input.url;
    if (url.startsWith('/api/v1/workflows?')) window.__listFetches.push({ url, at: Date.now() });
    return original.call(this, input, init);
  };
`;
interface ListFetch {
  url: string;
  at: number;
}
const listFetches = (page: Page) => page.evaluate<ListFetch[]>('window.__listFetches');
const withCursor = (fetches: ListFetch[]) =>
  fetches.filter((f) => new URL(f.url, 'http://x').searchParams.has('cursor'));

test('with 45 workflows the end-of-list sentinel loads pages 2 and 3, and no more', async () => {
  const user = await stack.createUser({ email: 'lister@example.test' });
  const base = Date.now() - 3_600_000;
  for (let i = 0; i < 45; i += 1) {
    await seedWorkflow(stack.infra.db.pool, {
      createdBy: user.id,
      status: 'completed',
      updatedAt: new Date(base + i * 1000),
    });
  }
  const o = await openAs('lister@example.test', '/budget');
  await o.context.addInitScript(RECORD_LIST_FETCHES);
  const { page, problems } = o;
  await page.goto(`${stack.consoleUrl}/workflows`);
  const list = page.getByRole('list', { name: 'Workflows' });
  await list.locator('li[aria-setsize="20"]').first().waitFor();
  expect(withCursor(await listFetches(page))).toHaveLength(0);

  await scrollToEnd(page);
  await list.locator('li[aria-setsize="40"]').first().waitFor();
  await scrollToEnd(page);
  await list.locator('li[aria-setsize="45"]').first().waitFor();
  await page.getByText('End of the list (45 workflows).').waitFor();
  await scrollToEnd(page);

  const cursors = withCursor(await listFetches(page)).map((f) => new URL(f.url, 'http://x').searchParams.get('cursor'));
  expect(cursors).toHaveLength(2);
  expect(new Set(cursors).size).toBe(2);
  // Only the rows in view are in the document.
  expect(await list.locator('li').count()).toBeLessThan(45);
  expect(problems).toEqual([]);
});

test('the list refetches every 2 s while a workflow is running and every 6 s once none is, in a background tab too (controlled clock)', async () => {
  const user = await stack.createUser({ email: 'watcher@example.test' });
  const now = Date.now();
  const running = await seedWorkflow(stack.infra.db.pool, {
    createdBy: user.id,
    status: 'running',
    updatedAt: new Date(now - 60_000),
  });
  await seedWorkflow(stack.infra.db.pool, {
    createdBy: user.id,
    status: 'completed',
    updatedAt: new Date(now - 120_000),
  });
  const o = await openAs('watcher@example.test', '/budget');
  const { page, problems } = o;
  await o.context.addInitScript(RECORD_LIST_FETCHES);
  await page.clock.install({ time: now });
  await page.goto(`${stack.consoleUrl}/workflows`);
  const refresh = page.locator('p.refresh');
  await page.locator('p.refresh[data-refreshes="1"][data-next-refresh-ms="2000"]').waitFor();

  // From here the page's time moves only when the test moves it.
  const refreshed = async (n: number) => page.locator(`p.refresh[data-refreshes="${n}"]`).waitFor();
  await page.clock.pauseAt(now + 3_600_000);
  await refreshed(2);
  const start = (await listFetches(page)).length;
  await page.clock.runFor(2_000);
  await refreshed(3);
  await page.clock.runFor(2_000);
  await refreshed(4);

  // The tab goes to the background (as the page sees it: a headless tab never really hides): the cadence holds.
  await page.evaluate(`
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  `);
  await page.clock.runFor(2_000);
  await refreshed(5);

  await setSeededStatus(stack.infra.db.pool, running, 'completed');
  await page.clock.runFor(2_000);
  await refreshed(6);
  expect(await refresh.getAttribute('data-next-refresh-ms')).toBe('6000');
  await page.clock.runFor(5_999);
  expect((await listFetches(page)).length).toBe(start + 4);
  await page.clock.runFor(1);
  await refreshed(7);
  await page.clock.runFor(6_000);
  await refreshed(8);

  const times = (await listFetches(page)).slice(start - 1).map((f) => f.at);
  expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([2_000, 2_000, 2_000, 2_000, 6_000, 6_000]);
  expect(problems).toEqual([]);
});

test('times are shown in the viewer’s own time zone', async () => {
  const user = await stack.createUser({ email: 'traveller@example.test' });
  const updatedAt = new Date('2026-07-01T00:00:00.000Z');
  const seeded = await seedWorkflow(stack.infra.db.pool, { createdBy: user.id, status: 'completed', updatedAt });
  const { page } = await openAs('traveller@example.test', `/workflows/${seeded.workflowId}`, {
    timezoneId: 'Pacific/Auckland',
    locale: 'en-US',
  });
  const expected = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: 'Pacific/Auckland',
  }).format(updatedAt);
  expect(expected).toContain('12:00:00 PM');
  await page.locator('.facts time').filter({ hasText: expected }).waitFor();
});

test('over budget, a submission shows the 402 message with the month’s budget', async () => {
  const user = await stack.createUser({ email: 'spender@example.test', budgetCents: 100 });
  await seedWorkflow(stack.infra.db.pool, {
    createdBy: user.id,
    status: 'completed',
    updatedAt: new Date(),
    costUsd: 2,
  });
  const { page, problems } = await openAs('spender@example.test', '/runs/new');
  await page.getByLabel('What should the team do?').fill('Write hello.md that greets the reader');
  await page.getByRole('button', { name: 'Start run' }).click();
  const alert = page.getByRole('alert');
  await alert.getByText('Over budget.').waitFor();
  await alert.getByText('Spent $2.00 of $1.00 this month.').waitFor();
  expect(page.url()).toMatch(/\/runs\/new$/);
  expect(problems).toEqual([]);
});

test('another user’s job address shows the forbidden page', async () => {
  const owner = await stack.createUser({ email: 'owner@example.test' });
  const theirs = await seedWorkflow(stack.infra.db.pool, {
    createdBy: owner.id,
    status: 'completed',
    updatedAt: new Date(),
  });
  await stack.createUser({ email: 'curious@example.test' });
  const { page } = await openAs('curious@example.test', `/jobs/${theirs.jobId}`);
  await page.waitForURL(/\/forbidden\?from=/);
  await page.getByRole('heading', { name: 'Not yours to see' }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
});

test('an admin approves a pending user, sets a budget and a role, and cannot disable itself', async () => {
  await stack.createUser({ email: 'boss@example.test', role: 'admin' });
  await stack.createUser({ email: 'waiting@example.test', approved: false });
  const { page, problems } = await openAs('boss@example.test', '/admin');
  const row = page.locator('tr[data-email="waiting@example.test"]');
  await row.getByText('pending').waitFor();
  await page.getByRole('button', { name: 'Approve waiting@example.test' }).click();
  await page.getByRole('status').getByText('waiting@example.test: approved.').waitFor();
  await row.getByText('active').waitFor();

  await page.getByLabel('Monthly budget of waiting@example.test in USD').fill('12.50');
  await page.getByRole('button', { name: 'Set budget of waiting@example.test' }).click();
  await page.getByRole('status').getByText('waiting@example.test: budget set to $12.50.').waitFor();
  const { rows } = await stack.identityPool.query<{ budget_cents: number; banned: boolean }>(
    `SELECT budget_cents, banned FROM ${stack.tables.users} WHERE email = 'waiting@example.test'`,
  );
  expect(rows[0]).toEqual({ budget_cents: 1250, banned: false });

  await page.getByLabel('Role of waiting@example.test').selectOption('admin');
  await page.getByRole('dialog').getByRole('button', { name: 'Change role to admin' }).click();
  await page.getByRole('status').getByText('waiting@example.test: role set to admin.').waitFor();
  const promoted = await stack.identityPool.query<{ role: string }>(
    `SELECT role FROM ${stack.tables.users} WHERE email = 'waiting@example.test'`,
  );
  expect(promoted.rows[0]!.role).toBe('admin');

  await page.getByRole('button', { name: 'Disable boss@example.test' }).click();
  await page.getByRole('alert').getByText('an admin cannot disable or demote itself').waitFor();
  await page.locator('tr[data-email="boss@example.test"]').getByText('active').waitFor();
  expect(problems).toEqual([]);
});

test('an admin sets an org budget and a project budget in the admin page, and a bad amount is said', async () => {
  await stack.createUser({ email: 'treasurer@example.test', role: 'admin' });
  await createProject(stack.infra.db.pool, { name: 'Budget site', slug: 'budget-site', orgId: CONSOLE_ORG });
  const { page, problems } = await openAs('treasurer@example.test', '/admin');
  await page.getByRole('heading', { name: 'Org and project budgets' }).waitFor();

  await page.getByLabel(`Monthly budget of org ${CONSOLE_ORG} in USD`).fill('40');
  await page.getByRole('button', { name: `Set budget of org ${CONSOLE_ORG}` }).click();
  await page.getByRole('status').getByText(`org ${CONSOLE_ORG}: budget set to $40.00.`).waitFor();

  const project = 'project Budget site (budget-site)';
  await page.getByLabel(`Monthly budget of ${project} in USD`).fill('seven');
  await page.getByText('“seven” is not an amount in dollars').waitFor();
  await page.getByLabel(`Monthly budget of ${project} in USD`).fill('7.5');
  await page.getByRole('button', { name: `Set budget of ${project}` }).click();
  await page.getByRole('status').getByText(`${project}: budget set to $7.50.`).waitFor();
  await page.locator('tr[data-budget="org-console/budget-site"]').getByText('$7.50').waitFor();

  const { rows } = await stack.infra.db.pool.query<{ project_slug: string | null; budget_cents: number }>(
    `SELECT project_slug, budget_cents FROM tenant_budgets WHERE org_id = $1 ORDER BY project_slug NULLS FIRST`,
    [CONSOLE_ORG],
  );
  expect(rows).toEqual([
    { project_slug: null, budget_cents: 4000 },
    { project_slug: 'budget-site', budget_cents: 750 },
  ]);
  expect(problems).toEqual([]);
});

test('every page passes axe-core with no serious or critical violation', async () => {
  await stack.createUser({ email: 'inspector@example.test', role: 'admin' });
  const seeded = await seedWorkflow(stack.infra.db.pool, {
    createdBy: 'someone',
    status: 'completed',
    updatedAt: new Date(),
  });
  const { page, problems } = await openAs('inspector@example.test', '/workflows');
  const pages: Array<[string, string]> = [
    ['/workflows', 'Workflows'],
    ['/runs/new', 'New run'],
    [`/workflows/${seeded.workflowId}`, `Workflow ${seeded.workflowId}`],
    ['/inbox', 'Needs you'],
    ['/knowledge', 'Knowledge'],
    ['/models', 'Models'],
    ['/admin', 'Admin · users'],
    ['/budget', 'My budget'],
    ['/forbidden', 'Not yours to see'],
    ['/not-found', 'Not found'],
  ];
  const found: Record<string, unknown> = {};
  for (const [path, heading] of pages) {
    await page.goto(stack.consoleUrl + path);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await page.locator('.loading').first().waitFor({ state: 'detached' });
    const violations = await seriousViolations(page);
    if (violations.length > 0) found[path] = violations;
  }
  expect(found).toEqual({});
  expect(problems).toEqual([]);
});

test('the knowledge page browses the atlas, reads a source and searches the hub', async () => {
  await stack.createUser({ email: 'reader@example.test' });
  const { page, problems } = await openAs('reader@example.test', '/knowledge');
  const atlas = page.getByRole('navigation', { name: 'Atlas' });
  await atlas.getByRole('link', { name: 'hub' }).click();
  await page.getByRole('heading', { name: 'Source hub' }).waitFor();
  await page.getByRole('link', { name: HUB_DOCS.onboarding.title }).click();
  await page.getByRole('heading', { name: HUB_DOCS.onboarding.title, level: 2 }).waitFor();
  await page.locator('.sources-panel').getByText('lighthouse handbook').waitFor();
  expect(new URL(page.url()).searchParams.get('doc')).toMatch(/^kh-/);

  await page.getByLabel('Search the hub').fill('release train');
  await page.getByRole('button', { name: 'Search' }).click();
  const results = page.getByRole('region', { name: 'Results for “release train”' });
  await results.getByRole('link', { name: HUB_DOCS.deploys.title }).click();
  await page.locator('.sources-panel').getByText('every Tuesday').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('the knowledge page says why, in the API’s words, when the API has no hub to serve', async () => {
  await stack.createUser({ email: 'hubless@example.test' });
  const hub = stack.keel.deps.kb;
  // The API reads its hub on each request: without one, every KB route answers 503 kb_unavailable with the reason.
  stack.keel.deps.kb = undefined;
  try {
    const { page, problems } = await openAs('hubless@example.test', '/knowledge');
    await page.getByRole('alert').getByText('this API runs without a knowledge hub').waitFor();
    expect(problems).toEqual([]);
  } finally {
    stack.keel.deps.kb = hub;
  }
});

// Last: it spends this client address's sign-in attempts.
test('eleven wrong passwords show the 429 message', async () => {
  await stack.createUser({ email: 'forgetful@example.test' });
  const { page } = await open('/login');
  for (let attempt = 1; attempt <= 10; attempt += 1) {
    await signInWithForm(page, 'forgetful@example.test', `wrong ${attempt}`);
    await page.getByRole('alert').getByText('Wrong email or password.').waitFor();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ state: 'visible' });
    await expect(page.getByRole('button', { name: 'Sign in', exact: true }).isEnabled()).resolves.toBe(true);
  }
  await signInWithForm(page, 'forgetful@example.test', 'wrong 11');
  await page
    .getByRole('alert')
    .getByText(/^Too many sign-in attempts from this network\. Try again in \d+ minutes?\.$/)
    .waitFor();
});

test('another site cannot frame the console: Chromium refuses the frame, and the pages run under the policy', async () => {
  // A page on another origin (another loopback port) that frames the console's sign-in page.
  const framer = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Decoy</title><iframe id="target" src="${stack.consoleUrl}/login"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = framer.address() as AddressInfo;
    const o = await open('/login');
    // The console's own page loads and runs under its policy: no script or style it needs is refused.
    await o.page.getByRole('textbox', { name: 'Email' }).waitFor();
    expect(o.problems).toEqual([]);
    const refused = o.page.waitForEvent('console', (message) =>
      /frame-ancestors|Refused to display/.test(message.text()),
    );
    await o.page.goto(`http://127.0.0.1:${port}/`);
    await refused;
    const frame = o.page.frames().find((f) => f !== o.page.mainFrame());
    // A refused frame holds Chromium's error page, never the console's sign-in form.
    expect(await frame?.locator('input[type=password]').count()).toBe(0);
  } finally {
    await new Promise((resolve) => framer.close(resolve));
  }
});

import type { Page, Request } from 'playwright-core';
import { seriousViolations } from './axe';
import { seedWorkflow, setSeededStatus } from './seed';
import { signInWithForm, startBrowserStack, type BrowserStack, type OpenedPage } from './stack';

/**
 * The console's pages in Debian's Chromium against the real stack: signing in and out, the pending-approval landing,
 * the workflow list's paging and refetch cadence, refusals (402, 403, 429), the admin page, and an accessibility pass.
 */
let stack: BrowserStack;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack();
}, 180_000);

afterAll(async () => {
  for (const o of opened) await o.context.close().catch(() => undefined);
  await stack?.close();
});

async function open(path: string) {
  const o = await stack.open(path);
  opened.push(o);
  return o;
}
async function openAs(email: string, path: string) {
  const o = await stack.openAs(email, path);
  opened.push(o);
  return o;
}

function isListRequest(request: Request, withCursor: boolean): boolean {
  const url = new URL(request.url());
  return (
    url.pathname === '/api/v1/workflows' && request.method() === 'GET' && url.searchParams.has('cursor') === withCursor
  );
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

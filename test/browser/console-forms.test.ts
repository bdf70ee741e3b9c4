import type { Page } from 'playwright-core';
import { seriousViolations } from './axe';
import { PASSWORD, signInWithForm, startBrowserStack, type BrowserStack, type OpenedPage } from './stack';
import { eventually } from '../integration/eventually';

/**
 * The console's forms, in Debian's Chromium against the real stack: New run's scenario list and project picker, and
 * the admin page (adding and inviting users, who wait for approval; confirmed role changes; a budget that says why it
 * is refused; the page a non-admin meets). Tests run in file order: the first needs the org to have no project yet.
 */
let stack: BrowserStack;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack();
  await stack.createUser({ email: 'maker@example.test' });
  await stack.createUser({ email: 'chief@example.test', role: 'admin' });
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

const projectBox = (page: Page) => page.getByRole('combobox', { name: 'Project' });
const options = (page: Page) => page.getByRole('listbox').getByRole('option');

async function newJobRow(page: Page) {
  await page.waitForURL(/\/jobs\/job-/);
  const jobId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const { rows } = await stack.infra.db.pool.query<{ scenario: string; project_slug: string | null }>(
    `SELECT w.scenario, w.project_slug FROM job_runs j JOIN workflows w USING (workflow_id) WHERE j.job_id = $1`,
    [jobId],
  );
  return rows[0]!;
}

test('the project picker with no project: ArrowDown opens an empty list, never a creation; a typed name is created', async () => {
  const { page, problems } = await openAs('maker@example.test', '/runs/new');
  await page.getByLabel('What should the team do?').fill('Write hello.md that greets the reader');
  await projectBox(page).focus();
  await page.keyboard.press('ArrowDown');
  await page.getByText('No projects yet: type a name to create one.').waitFor();
  expect(await projectBox(page).getAttribute('aria-expanded')).toBe('true');
  expect(await options(page).count()).toBe(0);
  expect(await projectBox(page).inputValue()).toBe('');
  expect(await page.getByText(/Create project/).count()).toBe(0);
  await page.keyboard.press('Escape');
  expect(await projectBox(page).getAttribute('aria-expanded')).toBe('false');
  expect(await seriousViolations(page)).toEqual([]);

  await page.keyboard.type('Apollo');
  await options(page).getByText('Create project “Apollo”').waitFor();
  await page.keyboard.press('ArrowDown');
  const active = await projectBox(page).getAttribute('aria-activedescendant');
  expect(await page.locator(`[id="${active}"]`).innerText()).toBe('Create project “Apollo”');
  await page.keyboard.press('Enter');
  await page.getByText('“Apollo” is created when the run starts.').waitFor();
  await page.getByRole('button', { name: 'Start run' }).click();
  expect((await newJobRow(page)).project_slug).toBe('apollo');
  expect(problems).toEqual([]);
});

test('with projects, ArrowDown highlights the first and Enter picks it; a name that is no project says why', async () => {
  const { page, problems } = await openAs('maker@example.test', '/runs/new');
  await page.getByLabel('What should the team do?').fill('Write hello.md that greets the reader');
  await projectBox(page).focus();
  await page.keyboard.press('ArrowDown');
  await options(page).first().waitFor();
  expect(await options(page).allInnerTexts()).toEqual(['Apollo (apollo)']);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  expect(await projectBox(page).inputValue()).toBe('Apollo');

  // Typed over, without picking: the field says why the run cannot start instead of guessing.
  await projectBox(page).fill('Apollo 2');
  await page.keyboard.press('Escape');
  await page.getByLabel('What should the team do?').focus();
  await page.getByRole('button', { name: 'Start run' }).click();
  const why = 'No project is called “Apollo 2”: pick one from the list, choose “Create project”, or clear the field.';
  await page.getByText(why).waitFor();
  expect(await projectBox(page).getAttribute('aria-invalid')).toBe('true');
  const described = (await projectBox(page).getAttribute('aria-describedby'))!.split(' ');
  expect(described).toContain(await page.getByText(why).getAttribute('id'));
  expect(new URL(page.url()).pathname).toBe('/runs/new');
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('the scenario is picked from the list the API serves, and the run uses it; an empty prompt says why', async () => {
  const { page, problems } = await openAs('maker@example.test', '/runs/new');
  await page.getByRole('button', { name: 'Start run' }).click();
  const promptWhy = page.getByText('Say what the team should do: the prompt is required.');
  await promptWhy.waitFor();
  expect(await page.getByLabel('What should the team do?').getAttribute('aria-invalid')).toBe('true');

  const scenario = page.getByLabel('Scenario');
  // The list arrives from the API after the form shows; a person sees it once the last scenario is there.
  await scenario.locator('option[value="review"]').waitFor({ state: 'attached' });
  const offered = await page.evaluate<string[]>(
    '[...document.querySelectorAll("#run-scenario option")].map((o) => o.value)',
  );
  expect(offered).toEqual(['', 'build', 'build-and-test', 'product', 'product-confirmed', 'review']);
  expect(await scenario.locator('option').first().innerText()).toBe('Default (build)');
  await scenario.selectOption('review');
  await page.getByText('Review what the build produced against the request').waitFor();
  await page.getByLabel('What should the team do?').fill('Review hello.md');
  await promptWhy.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Start run' }).click();
  expect((await newJobRow(page)).scenario).toBe('review');
  expect(problems).toEqual([]);
});

test('a non-admin on /admin is told the page is for admins', async () => {
  const { page, problems } = await openAs('maker@example.test', '/admin');
  await page.getByRole('heading', { name: 'For admins only', level: 1 }).waitFor();
  await page.getByText('is for admins: it manages users').waitFor();
  expect(await page.getByText('belongs to another user').count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
  // Where an admin-only call's 403 admin_required lands (LoadProblem), the page says the same.
  await page.goto(`${stack.consoleUrl}/forbidden?from=%2Fadmin&reason=admin_required`);
  await page.getByRole('heading', { name: 'For admins only', level: 1 }).waitFor();
  await page.getByText('/admin', { exact: true }).waitFor();
  expect(problems).toEqual([]);
});

test('an admin creates and invites users, who show as pending until approved; the created one can then sign in', async () => {
  const { page, problems } = await openAs('chief@example.test', '/admin');
  await page.getByRole('heading', { name: 'Add a user' }).waitFor();

  // Every invalid field says why, beside the field.
  await page.getByLabel('Email', { exact: true }).fill('not an email');
  await page.getByRole('radio', { name: /Password/ }).check();
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Create user' }).click();
  await page.getByText('“not an email” is not an email address.').waitFor();
  await page.getByText('A password needs at least 8 characters (5 so far).').waitFor();
  expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');

  await page.getByLabel('Email', { exact: true }).fill('newcomer@example.test');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create user' }).click();
  await page.getByRole('status').getByText('newcomer@example.test added: pending approval.').waitFor();
  await page.locator('tr[data-email="newcomer@example.test"]').getByText('pending').waitFor();

  await page.getByLabel('Email', { exact: true }).fill('guest@example.test');
  await page.getByRole('radio', { name: /Invite/ }).check();
  await page.getByRole('button', { name: 'Invite user' }).click();
  await page.getByRole('status').getByText('guest@example.test added: pending approval.').waitFor();
  await page.locator('tr[data-email="guest@example.test"]').getByText('pending').waitFor();
  const { rows } = await stack.identityPool.query<{ email: string; banned: boolean; ban_reason: string }>(
    `SELECT email, banned, ban_reason FROM ${stack.tables.users} WHERE email IN ('newcomer@example.test', 'guest@example.test') ORDER BY email`,
  );
  expect(rows).toEqual([
    { email: 'guest@example.test', banned: true, ban_reason: 'pending_approval' },
    { email: 'newcomer@example.test', banned: true, ban_reason: 'pending_approval' },
  ]);
  // Taken already: the service's own refusal, in its words.
  await page.getByLabel('Email', { exact: true }).fill('guest@example.test');
  await page.getByRole('button', { name: 'Invite user' }).click();
  await page.getByRole('alert').getByText('a user with email guest@example.test already exists').waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  // Before approval the created user is sent to the pending page; after it, in.
  const visitor = await stack.open('/login');
  opened.push(visitor);
  await signInWithForm(visitor.page, 'newcomer@example.test');
  await visitor.page.waitForURL(/\/pending/);
  await page.getByRole('button', { name: 'Approve newcomer@example.test' }).click();
  await page.locator('tr[data-email="newcomer@example.test"]').getByText('active').waitFor();
  await visitor.page.goto(`${stack.consoleUrl}/login`);
  await signInWithForm(visitor.page, 'newcomer@example.test');
  await visitor.page.waitForURL(/\/workflows/);
  expect(problems).toEqual([]);
});

test('a role change asks first: Cancel keeps the role, Confirm changes it', async () => {
  await stack.createUser({ email: 'promotee@example.test' });
  const { page, problems } = await openAs('chief@example.test', '/admin');
  const role = page.getByLabel('Role of promotee@example.test');
  const roleInDb = async () =>
    (
      await stack.identityPool.query<{ role: string }>(
        `SELECT role FROM ${stack.tables.users} WHERE email = 'promotee@example.test'`,
      )
    ).rows[0]!.role;

  await role.selectOption('admin');
  const dialog = page.getByRole('dialog', { name: 'Make promotee@example.test an admin?' });
  await dialog.getByText('exempt from budgets').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(await role.inputValue()).toBe('user');
  expect(await roleInDb()).toBe('user');

  // Escape is Cancel too.
  await role.selectOption('admin');
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await roleInDb()).toBe('user');

  await role.selectOption('admin');
  await dialog.getByRole('button', { name: 'Change role to admin' }).click();
  await page.getByRole('status').getByText('promotee@example.test: role set to admin.').waitFor();
  expect(await roleInDb()).toBe('admin');
  // The list is read again after the change, and the row shows the new role.
  // Read from here, not with page.waitForFunction: its polling evaluates a string in the page, which the console's CSP
  // (script-src 'self') refuses whenever the first check is not already true.
  await eventually(async () => (await role.inputValue()) === 'admin', { what: 'the role select to show admin' });
  expect(problems).toEqual([]);
});

test('an invalid budget says why beside the field, and nothing is sent', async () => {
  await stack.createUser({ email: 'budgeted@example.test' });
  const { page, problems } = await openAs('chief@example.test', '/admin');
  const field = page.getByLabel('Monthly budget of budgeted@example.test in USD');
  const set = page.getByRole('button', { name: 'Set budget of budgeted@example.test' });
  const patches: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH') patches.push(r.url());
  });

  await field.fill('ten dollars');
  const why = page.getByText('“ten dollars” is not an amount in dollars: use digits and at most two decimals.');
  await why.waitFor();
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  expect(await field.getAttribute('aria-describedby')).toBe(await why.getAttribute('id'));
  expect(await set.isDisabled()).toBe(false);
  await set.click();
  expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe(await field.getAttribute('id'));

  await field.fill('');
  await set.click();
  await page.getByText('Enter a monthly budget in dollars, such as 25 or 12.50.').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  expect(patches).toEqual([]);

  await field.fill('30');
  expect(await field.getAttribute('aria-invalid')).toBeNull();
  await set.click();
  await page.getByRole('status').getByText('budgeted@example.test: budget set to $30.00.').waitFor();
  expect(patches).toHaveLength(1);
  expect(problems).toEqual([]);
});

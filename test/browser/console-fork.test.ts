import { seriousViolations } from './axe';
import { startBrowserStack, type BrowserStack, type OpenedPage } from './stack';
import { submitFromNewRun, timelineRow } from './console-actions';

/**
 * Fork and compare in the console (issue 33, item 4), in Chromium against the real stack and the offline demo model:
 * a person forks a finished job from its verifier's step with an edited prompt and a budget of its own, lands on the fork, which names its
 * source, and opens the comparison from there.
 */
const EMAIL = 'forker@example.test';
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

test("fork from a run's step drawer with an edited prompt, then compare the fork with its source", async () => {
  const o = await stack.openAs(EMAIL, '/runs/new');
  opened.push(o);
  const { page, problems } = o;
  const source = await submitFromNewRun(page, stack.consoleUrl, 'Write fork.md about durable workflows');
  await timelineRow(page, 'final').waitFor();

  // Fork after the team lead's plan: the levels after it run again on the new prompt, and write fork.md anew.
  const lead = `${source}/L1.team_lead/1`;
  await page.goto(`${stack.consoleUrl}/jobs/${encodeURIComponent(source)}?step=${encodeURIComponent(lead)}`);
  const drawer = page.getByRole('dialog', { name: /L1\.team_lead/ });
  await drawer.getByRole('button', { name: 'Fork from here' }).click();
  const form = drawer.getByRole('form', { name: 'Fork from here' });
  await form.getByLabel(/Prompt for the fork/).fill('Write fork.md about durable workflows and their forks');
  // A ceiling of the fork's own, instead of its source's.
  await form.getByLabel(/Budget in USD/).fill('3.5');
  expect(await seriousViolations(page)).toEqual([]);
  await form.getByRole('button', { name: 'Start the fork' }).click();

  // The person lands on the fork's page, which says where it came from.
  await page.waitForURL((url) => /^\/jobs\/job-[^/]+$/.test(url.pathname) && !url.pathname.includes(source));
  const fork = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const from = page.getByTestId('forked-from');
  await from.getByRole('link', { name: source }).waitFor();
  expect(await from.innerText()).toMatch(/after L1\.team_lead\/1 · 1 run carried over · prompt edited/);
  await timelineRow(page, 'final').waitFor();
  const { rows: ceilings } = await stack.infra.db.pool.query<{ limit_usd: number }>(
    `SELECT (envelope->'payload'->>'limit_usd')::float AS limit_usd FROM job_events
      WHERE job_id = $1 AND kind = 'budget_consumed'`,
    [fork],
  );
  expect(ceilings.length).toBeGreaterThan(0);
  expect(ceilings.every((c) => c.limit_usd === 3.5)).toBe(true);

  // The source lists its fork.
  await from.getByRole('link', { name: source }).click();
  await page.getByTestId('forks').getByRole('link', { name: fork }).waitFor();

  // Compare: the carried runs marked, the file's diff shown.
  await page.getByTestId('forks').getByRole('link', { name: 'compare' }).click();
  await page.getByRole('heading', { name: 'Compare jobs' }).waitFor();
  expect(new URL(page.url()).pathname).toBe(`/jobs/${encodeURIComponent(source)}/compare/${encodeURIComponent(fork)}`);
  await page.getByText('the second is a fork of the first').waitFor();
  const levels = page.getByRole('table');
  expect(await levels.getByText('carried over').count()).toBe(1);
  const diff = page.getByLabel('Changes to fork.md');
  await diff.waitFor();
  expect(await diff.innerText()).toMatch(/^\+.*and their forks/m);
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

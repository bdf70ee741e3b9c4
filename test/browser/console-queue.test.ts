import { seriousViolations } from './axe';
import { submitFromNewRun, timelineRow } from './console-actions';
import { CONSOLE_ORG, startBrowserStack, type BrowserStack, type OpenedPage } from './stack';

/**
 * A queued job's page under fair scheduling (issue 36 item 3, docs/scheduling.md), in Chromium against the real stack
 * and the offline demo model, with one slot for the deployment: the second job says where it waits and why, and the
 * line goes once a cancel of the first frees the slot and the second starts.
 */
const EMAIL = 'queued@example.test';
let stack: BrowserStack;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack({
    scheduling: {
      policy: { orgSlots: null, totalSlots: 1, fair: true },
      // A grant reaches the next job by its signal, not by the backstop claim.
      reclaimMs: 10 * 60_000,
      sweepMs: 60_000,
    },
  });
  await stack.createUser({ email: EMAIL });
}, 180_000);

afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

test("a queued job's page says its place in its org's queue and what it waits for, until it starts", async () => {
  const o = await stack.openAs(EMAIL, '/runs/new');
  opened.push(o);
  const { page, problems } = o;
  // The first job holds the one slot while it waits for its question's answer.
  const first = await submitFromNewRun(page, stack.consoleUrl, 'Write a.md #ask');
  await timelineRow(page, 'ask_user').waitFor({ timeout: 90_000 });

  const second = await submitFromNewRun(page, stack.consoleUrl, 'Write b.md');
  const line = page.getByTestId('job-queue');
  await line.waitFor({ timeout: 60_000 });
  expect(await line.innerText()).toBe(
    `Queued — position 1 in ${CONSOLE_ORG}'s queue, waiting for a free slot (every slot of the deployment is taken)`,
  );
  expect(await seriousViolations(page)).toEqual([]);

  // Cancelling the first frees its slot: the second starts, and its page drops the line.
  await page.goto(`${stack.consoleUrl}/jobs/${encodeURIComponent(first)}`);
  await page.getByRole('button', { name: 'Cancel job' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this job?' })
    .getByRole('button', { name: 'Yes, cancel the job' })
    .click();
  await page.locator('.page-head .badge').getByText('cancelled').waitFor();
  await page.goto(`${stack.consoleUrl}/jobs/${encodeURIComponent(second)}`);
  await timelineRow(page, 'level_started').first().waitFor({ timeout: 90_000 });
  await line.waitFor({ state: 'detached', timeout: 30_000 });
  expect(problems).toEqual([]);
});

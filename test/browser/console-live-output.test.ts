import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { startPausedStreamModel } from '../integration/paused-stream-model';
import { seriousViolations } from './axe';
import { startBrowserStack, type BrowserStack, type OpenedPage } from './stack';
import { submitFromNewRun } from './console-actions';

/**
 * Live model output on the job page (issue 32, item 4), in Chromium against the real stack and the offline demo model.
 * A proxy in front of the demo model holds the executor's streamed answer part-way (test/integration/
 * paused-stream-model.ts), so the page is looked at mid-call with no sleep: its file being written shows while the
 * level runs, survives a reload (the call's buffer replays it), shows in the step's drawer with the step marked
 * streaming in the run graph, and gives way to the durable result at the end.
 */
const EMAIL = 'live@example.test';
const PROMPT = 'Write notes.md about durable workflows';
/** With KEEL_SHOTS_DIR set, the test leaves screenshots of what it looked at there (for people, not assertions). */
const SHOTS = process.env.KEEL_SHOTS_DIR;
let stack: BrowserStack;
let paused: Awaited<ReturnType<typeof startPausedStreamModel>>;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack({
    demoModelProxy: async (upstream) => {
      paused = await startPausedStreamModel({ upstream, level: 'L4.executor', afterEvents: 8 });
      return paused;
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

const submit = (page: Page, prompt: string) => submitFromNewRun(page, stack.consoleUrl, prompt);

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await fs.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test("the executor's file shows as it is written, again after a reload, then gives way to the durable result", async () => {
  const o = await stack.openAs(EMAIL, '/runs/new');
  opened.push(o);
  const { page, problems } = o;
  const jobId = await submit(page, PROMPT);
  const executor = `${jobId}/L4.executor/1`;
  const run = page.locator(`li.run[data-level="${executor}"]`);
  const live = page.locator(`[data-testid="live-output"][data-level="${executor}"]`);

  // The executor's answer is streaming and held part-way: the page shows what it has so far, the level still running.
  await paused.reached;
  await live.getByTestId('live-file-path').filter({ hasText: 'notes.md' }).waitFor();
  await live.getByTestId('live-file-content').filter({ hasText: /\S/ }).waitFor();
  const before = await live.getByTestId('live-file-content').innerText();
  expect(await run.getAttribute('data-state')).toBe('running');
  // Screen readers hear what the level does, not each token: only the status sentence is a live region.
  await expect(page.getByRole('status').filter({ hasText: 'L4.executor is writing notes.md' }).count()).resolves.toBe(
    1,
  );
  expect(await live.locator('[aria-live]').count()).toBe(0);
  // Deltas are no events: every timeline row is a durable event with its sequence.
  expect(await page.locator('.timeline li[data-sequence]').count()).toBeGreaterThan(0);
  expect(await page.locator('.timeline li:not([data-sequence]), .timeline li[data-kind="delta"]').count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'streaming');

  // At 390 px the streaming file wraps: no horizontal scroll.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'streaming-390-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });

  // A reload mid-call: the call's buffer gives the output so far again (the file starts the same, nothing doubled).
  await page.reload();
  await live.getByTestId('live-file-path').filter({ hasText: 'notes.md' }).waitFor();
  await live
    .getByTestId('live-file-content')
    .filter({ hasText: before.trim().slice(0, 200) })
    .waitFor();
  const replayed = await live.getByTestId('live-file-content').innerText();
  expect(replayed.startsWith(before)).toBe(true);
  expect(await run.getAttribute('data-state')).toBe('running');
  await shot(page, 'after-reload');

  // The run graph marks the executor's step as streaming, in words a screen reader hears too.
  const step = page.locator(`.run-graph a[data-step-id="${executor}"]`);
  await page.locator(`.run-graph a[data-step-id="${executor}"][data-streaming="true"]`).waitFor();
  expect(await step.locator('title').textContent()).toContain('streaming…');
  expect(await page.locator('.run-graph a[data-streaming="true"]').count()).toBe(1);

  // Its step drawer, opened from the graph, shows the file being written too, while the level runs.
  await step.click();
  const drawer = page.getByRole('dialog');
  const drawerLive = drawer.locator(`[data-testid="live-output"][data-level="${executor}"]`);
  await drawerLive.getByRole('heading', { name: 'Live output' }).waitFor();
  await drawerLive.getByTestId('live-file-path').filter({ hasText: 'notes.md' }).waitFor();
  await drawerLive
    .getByTestId('live-file-content')
    .filter({ hasText: before.trim().slice(0, 200) })
    .waitFor();
  expect(await drawer.locator('.run-detail .badge').first().innerText()).toBe('running');
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'drawer-streaming');

  // The rest streams, the level ends, and its durable result replaces the live output: in the drawer, the run's
  // transcript with the write_file call it made, in the graph, the step's state.
  paused.release();
  await drawer.locator('.run-detail .badge').filter({ hasText: 'ok' }).waitFor();
  await drawerLive.waitFor({ state: 'detached' });
  await drawer.getByRole('list', { name: 'Tool calls' }).getByText('write_file').first().waitFor();
  await drawer.getByRole('region', { name: 'Output' }).waitFor();
  await shot(page, 'drawer-finished');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
  await page.locator(`li.run[data-level="${executor}"][data-state="ok"]`).waitFor();
  await live.waitFor({ state: 'detached' });
  expect(await step.getAttribute('data-streaming')).toBeNull();
  await page.locator('.files').getByText('notes.md').first().waitFor();
  await page.locator('.timeline li[data-kind="final"]').first().waitFor();
  expect(await page.locator('[data-testid="live-output"]').count()).toBe(0);
  await page.locator('.run-graph a[data-state="ok"]').first().waitFor();
  expect(await page.locator('.run-graph a[data-streaming]').count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'finished');
  expect(problems).toEqual([]);
});

import type { Locator, Page } from 'playwright-core';

/** What the console's browser tests do the same way in every file: start a run, and find a job page's rows. */

/**
 * Submits `prompt` from the New run page, as a person does (with the budget radio named by `budget` when given), and
 * returns the id of the job page it lands on.
 */
export async function submitFromNewRun(
  page: Page,
  consoleUrl: string,
  prompt: string,
  budget?: RegExp,
): Promise<string> {
  await page.goto(`${consoleUrl}/runs/new`);
  await page.getByLabel('What should the team do?').fill(prompt);
  if (budget) await page.getByRole('radio', { name: budget }).check();
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/jobs\/job-/);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

/** The job page's timeline rows of one event kind. */
export const timelineRow = (page: Page, kind: string): Locator => page.locator(`.timeline li[data-kind="${kind}"]`);

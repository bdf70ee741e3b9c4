import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { createToken } from '../../db/tokens';
import { eventually } from '../integration/eventually';
import { documentedVerifier, startReceiver } from '../integration/webhook-receiver';
import { seriousViolations } from './axe';
import { timelineRow } from './console-actions';
import { CONSOLE_ORG, startBrowserStack, type BrowserStack, type OpenedPage } from './stack';

/**
 * Webhooks in the console (docs/webhooks.md), in Chromium against the real stack: an admin adds a project webhook on
 * the admin page and sees its secret once, a run in the project delivers to it, the job page shows the delivery log
 * (status, attempts, latency) and redelivers, and the admin rotates the secret. Screenshots to /tmp/shots-hooks/.
 */
const ADMIN = 'hooks-admin@example.test';
const SHOTS = '/tmp/shots-hooks';
let stack: BrowserStack;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  stack = await startBrowserStack({
    webhooks: {
      allowHosts: ['127.0.0.1'],
      attemptTimeoutMs: 10_000,
      initialIntervalMs: 100,
      maximumIntervalMs: 1_000,
      maximumAttempts: 5,
    },
  });
  await stack.createUser({ email: ADMIN, role: 'admin' });
  const { token } = await createToken(stack.infra.db.pool, { userId: 'seeder', orgId: CONSOLE_ORG, isAdmin: true });
  const created = await fetch(`${stack.keel.baseUrl}/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Hooks', slug: 'hooks' }),
  });
  expect(created.status).toBe(201);
  await fs.mkdir(SHOTS, { recursive: true });
}, 180_000);

afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

test('an admin adds a project webhook, a run of the project delivers to it, the job page shows the log and redelivers, and the secret rotates', async () => {
  const receiver = await startReceiver((index) => (index === 0 ? 500 : 200));
  const verify = documentedVerifier();
  try {
    const o = await stack.openAs(ADMIN, '/admin');
    opened.push(o);
    const { page, problems } = o;

    // Add the endpoint: its secret is shown once.
    const form = page.getByRole('form', { name: 'Add a project webhook' });
    await form.getByLabel('Project').selectOption(`${CONSOLE_ORG}/hooks`);
    await form.getByLabel('Endpoint URL').fill(receiver.url);
    await form.getByRole('button', { name: 'Add webhook' }).click();
    const secretBox = page.getByTestId('webhook-secret');
    await secretBox.waitFor();
    const secret = await secretBox.innerText();
    expect(secret).toMatch(/^whsec_/);
    const row = page.locator('tr[data-subscription]');
    await row.waitFor();
    expect(await row.innerText()).toContain(receiver.url);
    expect(await row.innerText()).toContain('final, error');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'admin-webhook-added');
    // Shown once: after a reload the page has it no more.
    await page.reload();
    await row.waitFor();
    expect(await page.getByTestId('webhook-secret').count()).toBe(0);

    // A run in the project.
    await page.goto(`${stack.consoleUrl}/runs/new`);
    await page.getByLabel('What should the team do?').fill('Write hello.md that greets the reader');
    const projectBox = page.getByRole('combobox', { name: 'Project' });
    await projectBox.fill('Hooks');
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /Hooks \(hooks\)/ })
      .click();
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/jobs\/job-/);
    const jobId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await timelineRow(page, 'final').waitFor({ timeout: 120_000 });

    // The delivery log: the final event, delivered on its second attempt (the receiver answered 500 first).
    const log = page.getByRole('region', { name: 'Webhook deliveries' });
    const first = log.locator('tr[data-delivery]').first();
    await eventually(async () => (await first.count()) > 0 && (await first.innerText()).includes('delivered'), {
      what: 'the delivery shown delivered on the job page',
    });
    const firstId = (await first.getAttribute('data-delivery'))!;
    expect(firstId).toMatch(new RegExp(`^webhook-${jobId}-\\d+-whsub_[0-9a-f]{16}$`));
    expect(await first.getByTestId('attempts').innerText()).toBe('2');
    expect(await first.innerText()).toMatch(/final/);
    expect(await first.innerText()).toMatch(/200/);
    expect(await first.innerText()).toMatch(/\d+ ms/);
    expect(verify(receiver.received[1]!.body, String(receiver.received[1]!.headers['keel-signature']), [secret])).toBe(
      true,
    );
    expect(await seriousViolations(page)).toEqual([]);

    // Redeliver: a new delivery of the same event, delivered.
    await first.getByRole('button', { name: /Redeliver/ }).click();
    await page.getByText(`as ${firstId}-r1`).waitFor();
    const again = log.locator(`tr[data-delivery="${firstId}-r1"]`);
    await eventually(async () => (await again.count()) > 0 && (await again.innerText()).includes('delivered'), {
      what: 'the redelivery shown delivered',
    });
    await eventually(() => receiver.received.length === 3, { what: 'the redelivery at the receiver' });
    expect(receiver.received[2]!.headers['keel-delivery-id']).toBe(`${firstId}-r1`);
    await shot(page, 'job-webhook-deliveries');

    // Rotate: a new secret shown once, the old one still signing until a day from now.
    await page.goto(`${stack.consoleUrl}/admin`);
    await row.waitFor();
    await row.getByRole('button', { name: /Rotate secret/ }).click();
    await eventually(async () => (await secretBox.count()) > 0 && (await secretBox.innerText()) !== secret, {
      what: 'the rotated secret shown',
    });
    expect(await secretBox.innerText()).toMatch(/^whsec_/);
    await eventually(async () => (await row.innerText()).includes('the previous secret signs too until'), {
      what: 'the overlap shown on the row',
    });
    await shot(page, 'admin-webhook-rotated');
    expect(problems).toEqual([]);
  } finally {
    await receiver.close();
  }
}, 300_000);

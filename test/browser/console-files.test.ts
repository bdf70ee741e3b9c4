import fs from 'node:fs/promises';
import path from 'node:path';
import { recordJobFile } from '../../db/files';
import { seriousViolations } from './axe';
import { seedWorkflow } from './seed';
import { startBrowserStack, type BrowserStack, type OpenedPage } from './stack';
import { eventually } from '../integration/eventually';

/**
 * A job's files in the console, in Debian's Chromium against the real stack: Markdown rendered, HTML previewed in a
 * sandbox that runs no script, images shown, a download that saves the file, and a URL per file. The files are
 * written where the executor writes them (the job's workspace and its `job_files` rows), so no job has to run.
 */
let stack: BrowserStack;
let jobId: string;
const opened: OpenedPage[] = [];
const EMAIL = 'reader@example.test';

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const FILES: Record<string, string | Buffer> = {
  'README.md': [
    '# Release notes',
    '',
    'Two **changes** ship today:',
    '',
    '- faster builds',
    '- clearer errors',
    '',
    '<img src="x" onerror="window.__ran = true">',
    '',
    '[a link](javascript:alert(1))',
    '',
  ].join('\n'),
  'site/index.html':
    '<!doctype html><html><head><style>h1 { color: rgb(200, 0, 0); }</style></head><body>' +
    '<h1>Hello from the site</h1><p id="note">static</p>' +
    '<script>document.getElementById("note").textContent = "script ran"; parent.__ran = true;</script></body></html>',
  'img/logo.png': PNG_1X1,
  'src/main.ts': 'export const answer = 42;\n',
};

beforeAll(async () => {
  stack = await startBrowserStack();
  const user = await stack.createUser({ email: EMAIL });
  ({ jobId } = await seedWorkflow(stack.infra.db.pool, {
    createdBy: user.id,
    status: 'completed',
    updatedAt: new Date(),
  }));
  for (const [name, content] of Object.entries(FILES)) {
    const file = path.join(stack.keel.deps.workspaceRoot, jobId, ...name.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
    await recordJobFile(stack.infra.db.pool, jobId, {
      path: name,
      sha256: 'a'.repeat(64),
      sizeBytes: Buffer.byteLength(content),
    });
  }
}, 180_000);

afterEach(async () => {
  for (const o of opened.splice(0)) await o.context.close().catch(() => undefined);
});

afterAll(async () => {
  await stack?.close();
});

async function openAs(pagePath: string) {
  const o = await stack.openAs(EMAIL, pagePath, { acceptDownloads: true });
  opened.push(o);
  return o;
}

test('a Markdown file’s URL opens it rendered: headings and lists are elements, its raw HTML is text', async () => {
  const { page, problems } = await openAs(`/jobs/${jobId}?file=README.md`);
  const viewer = page.getByRole('region', { name: 'README.md' });
  const body = viewer.locator('.markdown-body');
  await body.getByRole('heading', { name: 'Release notes', level: 1 }).waitFor();
  expect(await body.getByRole('listitem').allInnerTexts()).toEqual(['faster builds', 'clearer errors']);
  expect(await body.locator('strong').innerText()).toBe('changes');
  // The file's own HTML is escaped, and a script link is not made a link.
  expect(await body.locator('img').count()).toBe(0);
  await body.getByText('<img src="x" onerror="window.__ran = true">').waitFor();
  expect(await body.locator('a[href^="javascript"]').count()).toBe(0);
  expect(await page.evaluate('window.__ran === true')).toBe(false);
  // The viewer has the file's focus, and Source shows the text as written.
  await page.getByRole('button', { name: 'Source' }).click();
  await viewer.locator('pre').getByText('# Release notes').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('Download saves the file under its name: the answer is an attachment', async () => {
  const { page, problems } = await openAs(`/jobs/${jobId}`);
  const row = page.locator('.file-row', { has: page.getByRole('link', { name: 'site/index.html', exact: true }) });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: 'Download site/index.html' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('index.html');
  expect(await fs.readFile(await download.path(), 'utf8')).toBe(FILES['site/index.html']);
  const href = await row.getByRole('link', { name: 'Download site/index.html' }).getAttribute('href');
  const answer = await page.request.get(stack.consoleUrl + href!);
  expect(answer.headers()['content-disposition']).toBe('attachment; filename="index.html"');
  expect(problems).toEqual([]);
});

test('an HTML file is previewed in a sandbox that runs no script; its address opens it; Close and Back work', async () => {
  const { page, problems } = await openAs(`/jobs/${jobId}`);
  await page.getByRole('link', { name: 'site/index.html', exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('file') === 'site/index.html');
  const frame = page.locator('iframe[title="Preview of site/index.html"]');
  expect(await frame.getAttribute('sandbox')).toBe('');
  const preview = frame.contentFrame();
  await preview.getByRole('heading', { name: 'Hello from the site' }).waitFor();
  // The page's own styles apply, its script never ran.
  const inside = await (await frame.elementHandle()).contentFrame();
  expect(await inside!.evaluate<string>('getComputedStyle(document.querySelector("h1")).color')).toBe('rgb(200, 0, 0)');
  expect(await preview.locator('#note').innerText()).toBe('static');
  expect(await page.evaluate('window.__ran === true')).toBe(false);
  // Chromium says why the script was blocked: the sandbox, not the console's policy, which lets the preview render.
  expect(problems.filter((p) => !/Blocked script execution in 'about:srcdoc'/.test(p))).toEqual([]);
  expect(problems.some((p) => /Refused to (frame|load)/.test(p))).toBe(false);

  // Its address, opened in a new tab, shows the same preview.
  const direct = await openAs(`/jobs/${jobId}?file=${encodeURIComponent('site/index.html')}`);
  await direct.page
    .locator('iframe[title="Preview of site/index.html"]')
    .contentFrame()
    .getByRole('heading', { name: 'Hello from the site' })
    .waitFor();

  await page.getByRole('link', { name: 'Close site/index.html' }).click();
  await page.waitForURL((url) => !url.searchParams.has('file'));
  await page.getByRole('region', { name: 'site/index.html' }).waitFor({ state: 'detached' });
  await page.getByRole('link', { name: 'src/main.ts', exact: true }).click();
  await page.getByRole('region', { name: 'src/main.ts' }).locator('pre').getByText('export const answer').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
});

test('an image file is shown as an image, and its raw URL answers the image itself', async () => {
  const { page, problems } = await openAs(`/jobs/${jobId}?file=img%2Flogo.png`);
  const image = page.getByRole('img', { name: 'Image file img/logo.png' });
  await image.waitFor();
  // Read from here, not with page.waitForFunction: its polling evaluates a string in the page, which the console's CSP
  // (script-src 'self') refuses whenever the first check is not already true.
  const img = page.locator('.file-image img');
  // The image's load state, read through the DevTools protocol (which the page's CSP does not govern).
  const loaded = (element: unknown) => {
    const shown = element as { complete: boolean; naturalWidth: number };
    return shown.complete && shown.naturalWidth === 1;
  };
  await eventually(() => img.evaluate(loaded), { what: 'the image to load at its natural width of 1 pixel' });
  const raw = await page.getByRole('link', { name: 'Raw img/logo.png (opens in a new tab)' }).getAttribute('href');
  const answer = await page.request.get(stack.consoleUrl + raw!);
  expect(answer.headers()['content-type']).toBe('image/png');
  expect(Buffer.compare(await answer.body(), PNG_1X1)).toBe(0);
  expect(problems).toEqual([]);
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { verifyBuild } from './build-runner';
import { loadShippedDesigns, renderDesign } from './design-catalog';
import { chooseByKeywords, isUndecided } from './select';
import { loadTemplates, scaffoldFiles, type Template } from './template-catalog';
import { writeFiles } from './workspace-files';

let dir: string;
let templates: Template[];

beforeAll(async () => {
  templates = await loadTemplates();
});

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-template-test-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const byId = (id: string) => templates.find((t) => t.id === id)!;

async function scaffoldWithDesign(template: Template, designId: string): Promise<void> {
  await writeFiles(dir, scaffoldFiles(template, 'Crumb and Co'));
  const design = (await loadShippedDesigns()).find((d) => d.id === designId)!;
  await writeFiles(dir, [{ path: template.design.path, content: renderDesign(design, template.design.format) }]);
}

test('the catalog ships a static web page, a TypeScript library and a Node HTTP service', () => {
  expect(templates.map((t) => t.id)).toEqual(['node-service', 'static-page', 'ts-library']);
  expect(byId('static-page').publish).toBe('dist');
});

test.each(['static-page', 'ts-library', 'node-service'])(
  'the %s template scaffolds, takes a design, builds and passes its own tests offline',
  async (id) => {
    const template = byId(id);
    await scaffoldWithDesign(template, 'warm');
    const outcome = await verifyBuild(dir, template);
    expect(outcome.outputTail).not.toMatch(/not ok/);
    expect({ ok: outcome.ok, step: outcome.step, exitCode: outcome.exitCode }).toEqual({
      ok: true,
      step: 'test',
      exitCode: 0,
    });
  },
);

test('a static page with a feature section builds it into the page, with the design tokens', async () => {
  const template = byId('static-page');
  await scaffoldWithDesign(template, 'warm');
  await fs.writeFile(path.join(dir, 'about.md'), '# About us\n\nFresh bread every morning.\n');
  const outcome = await verifyBuild(dir, template);
  expect(outcome.ok).toBe(true);
  const html = await fs.readFile(path.join(dir, 'dist', 'index.html'), 'utf8');
  expect(html).toContain('<section id="about">');
  expect(html).toContain('<title>Crumb and Co</title>');
  expect(await fs.readFile(path.join(dir, 'dist', 'styles', 'tokens.css'), 'utf8')).toContain('#fdf6ec');
});

test('a broken feature fails the build with its exit code and the output that says why', async () => {
  const template = byId('static-page');
  await scaffoldWithDesign(template, 'clean');
  await fs.writeFile(path.join(dir, 'menu.md'), 'See [the menu](prices.html).\n');
  const outcome = await verifyBuild(dir, template);
  expect(outcome.ok).toBe(false);
  expect(outcome.step).toBe('build');
  expect(outcome.exitCode).toBe(1);
  expect(outcome.outputTail).toContain('missing local file: prices.html');
});

test('a TypeScript type error fails the library build at tsc', async () => {
  const template = byId('ts-library');
  await scaffoldWithDesign(template, 'clean');
  await fs.writeFile(path.join(dir, 'src', 'broken.ts'), 'export const n: number = "text";\n');
  const outcome = await verifyBuild(dir, template);
  expect(outcome).toMatchObject({ ok: false, step: 'build' });
  expect(outcome.outputTail).toContain('TS2322');
});

test('a failing test fails the service at the test step', async () => {
  const template = byId('node-service');
  await scaffoldWithDesign(template, 'clean');
  await fs.writeFile(
    path.join(dir, 'test', 'extra.test.mjs'),
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('x', () => assert.equal(1, 2));\n",
  );
  const outcome = await verifyBuild(dir, template);
  expect(outcome).toMatchObject({ ok: false, step: 'test' });
  expect(outcome.exitCode).not.toBe(0);
});

test('selection follows the request words, a pin wins, and an unspecific request is undecided', async () => {
  const designs = await loadShippedDesigns();
  expect(chooseByKeywords(templates, 'Build a landing page for a bakery')?.chosen.id).toBe('static-page');
  expect(chooseByKeywords(templates, 'a REST api service for orders')?.chosen.id).toBe('node-service');
  expect(chooseByKeywords(templates, 'a typescript library to parse dates')?.chosen.id).toBe('ts-library');
  expect(chooseByKeywords(templates, 'a landing page', 'ts-library')).toMatchObject({
    chosen: { id: 'ts-library' },
    reason: 'pinned to ts-library',
  });
  expect(chooseByKeywords(templates, 'a landing page', 'nope')).toBeUndefined();
  expect(isUndecided(chooseByKeywords(templates, 'make it nice'))).toBe(true);
  expect(chooseByKeywords(designs, 'Build a landing page for a bakery')?.chosen.id).toBe('warm');
  expect(chooseByKeywords(designs, 'something')?.chosen.id).toBe('clean');
});

import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The folder graph, from every import of every source file (type imports, `export … from`, `import()` and `require`
 * included, as TypeScript's own pre-processor lists them): no two folders reach each other through any chain, and no
 * arrow goes where the layer table of docs/layout.md forbids. A failure names the two files of each arrow. Tests are
 * left out: a test may reach into any layer to set up what it checks (eslint.config.js exempts them too).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { importAllowed, readLayerTable } = require('../../scripts/layer-table.js') as {
  readLayerTable(): Layer[];
  importAllowed(layers: Layer[], from: string, to: string): boolean | undefined;
};

interface Layer {
  name: string;
  folders: string[];
  mayImport: string[] | 'anything';
}

const root = path.resolve(__dirname, '../..');
const SKIPPED = new Set(['node_modules', 'dist', 'test', 'coverage', '.git', '.data', '.temporal']);

/** Every source file below a top-level folder, as a path relative to the root; tests and declarations left out. */
function sourceFiles(dir = root): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(full));
    else if (dir !== root && /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name)) {
      found.push(path.relative(root, full));
    }
  }
  return found;
}

/** A folder-level arrow and one pair of files that draws it. */
export interface Arrow {
  from: string;
  to: string;
  fromFile: string;
  toFile: string;
}

const topFolder = (file: string) => file.split(path.sep)[0]!;

/** The arrows between top-level folders drawn by `sources` (file → its text), one witness pair each. */
export function folderArrows(sources: Map<string, string>): Arrow[] {
  const arrows = new Map<string, Arrow>();
  for (const [file, text] of sources) {
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = path.normalize(path.join(path.dirname(file), imported.fileName));
      const [from, to] = [topFolder(file), topFolder(target)];
      if (from === to || to.startsWith('..')) continue;
      const key = `${from}→${to}`;
      if (!arrows.has(key)) arrows.set(key, { from, to, fromFile: file, toFile: target });
    }
  }
  return [...arrows.values()];
}

/** Each set of two or more folders that reach one another (Tarjan's strongly connected components). */
export function folderCycles(arrows: Arrow[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of arrows) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    for (const to of next.get(folder) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder)!, low.get(to)!));
      } else if (stack.includes(to)) {
        low.set(folder, Math.min(low.get(folder)!, index.get(to)!));
      }
    }
    if (low.get(folder) === index.get(folder)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== folder);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const folder of next.keys()) if (!index.has(folder)) visit(folder);
  return cycles;
}

const describeArrow = (a: Arrow) => `${a.from} → ${a.to} (${a.fromFile} imports ${a.toFile})`;

/** The problems of a graph by the table: cycles with their arrows, forbidden arrows, folders the table lacks. */
export function graphProblems(arrows: Arrow[], layers: Layer[]): string[] {
  const problems: string[] = [];
  for (const cycle of folderCycles(arrows)) {
    const inside = arrows.filter((a) => cycle.includes(a.from) && cycle.includes(a.to));
    problems.push(`cycle between ${cycle.join(', ')}: ${inside.map(describeArrow).join('; ')}`);
  }
  for (const arrow of arrows) {
    const allowed = importAllowed(layers, arrow.from, arrow.to);
    if (allowed === false) problems.push(`forbidden by docs/layout.md: ${describeArrow(arrow)}`);
    if (allowed === undefined) problems.push(`a folder in no layer of docs/layout.md: ${describeArrow(arrow)}`);
  }
  return problems;
}

const layers = readLayerTable();
const sources = new Map(sourceFiles().map((file) => [file, fs.readFileSync(path.join(root, file), 'utf8')]));

test('the folder graph has no cycle and no arrow the layer table forbids, counting type imports', () => {
  expect(graphProblems(folderArrows(sources), layers)).toEqual([]);
});

test('every folder with source code is in the layer table', () => {
  const known = new Set(layers.flatMap((layer) => layer.folders));
  expect([...new Set([...sources.keys()].map(topFolder))].filter((folder) => !known.has(folder))).toEqual([]);
});

describe('probes: an import the rules refuse fails the graph, naming both files', () => {
  const probed = (file: string, text: string) =>
    graphProblems(folderArrows(new Map([...sources, [file, text]])), layers);

  test('a type import from events/ of jobs/ closes a cycle (jobs imports events) and goes up a layer', () => {
    expect(probed('events/probe.ts', "import type { JobsDeps } from '../jobs/deps';\n")).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^cycle between .*events.*jobs.*events\/probe\.ts imports jobs\/deps/),
        'forbidden by docs/layout.md: events → jobs (events/probe.ts imports jobs/deps)',
      ]),
    );
  });

  test('a dynamic import from activities/ of workflows/ closes a cycle', () => {
    expect(probed('activities/probe.ts', "export const load = () => import('../workflows/definitions');\n")).toEqual(
      expect.arrayContaining([expect.stringMatching(/^cycle between activities, .*workflows/)]),
    );
  });

  test('an edge importing an activity is an arrow the table forbids', () => {
    expect(probed('api/probe.ts', "export type { WriteFileResult } from '../activities/workspace';\n")).toEqual([
      'forbidden by docs/layout.md: api → activities (api/probe.ts imports activities/workspace)',
    ]);
  });
});

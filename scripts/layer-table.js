// The layer table of docs/layout.md, read from the page itself: the one source that eslint.config.js (its import
// zones) and test/lint/folder-graph.test.ts (the folder graph) both check the code against, so the page, the linter
// and the test cannot disagree. Plain CommonJS with no dependencies: eslint.config.js loads it.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const LAYOUT_PAGE = path.join(__dirname, '..', 'docs', 'layout.md');
/** The table sits under this heading; its first three columns are the layer, its folders and what it may import. */
const HEADING = '## The layer table';

/**
 * @typedef {{ name: string, folders: string[], mayImport: string[] | 'anything' }} Layer
 * `mayImport` names layers (the first column); `anything` for tools; an empty list for "libraries only".
 */

/** @returns {Layer[]} */
function readLayerTable(page = LAYOUT_PAGE) {
  const text = fs.readFileSync(page, 'utf8');
  const start = text.indexOf(`\n${HEADING}\n`);
  if (start < 0) throw new Error(`${page}: no "${HEADING}" section`);
  // The first table after the heading: its header, its separator row, then one row a layer.
  const lines = text.slice(start + HEADING.length + 2).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const table = [];
  for (let i = first; i >= 0 && i < lines.length && lines[i].startsWith('|'); i += 1) table.push(lines[i]);
  const body = table.slice(2);
  const layers = body.map((row) => {
    const [name, folders, mayImport] = row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    return {
      name,
      folders: [...folders.matchAll(/`([^`/]+)\/`/g)].map((m) => m[1]),
      mayImport:
        mayImport === 'anything'
          ? 'anything'
          : mayImport === 'libraries only'
            ? []
            : mayImport.split(',').map((entry) => entry.trim()),
    };
  });
  const names = new Set(layers.map((layer) => layer.name));
  for (const layer of layers) {
    if (layer.folders.length === 0) throw new Error(`${page}: layer ${layer.name} lists no folder`);
    for (const other of layer.mayImport === 'anything' ? [] : layer.mayImport) {
      if (!names.has(other)) throw new Error(`${page}: layer ${layer.name} may import "${other}", which is no layer`);
    }
  }
  return layers;
}

/**
 * Whether code in folder `from` may import code in folder `to` by the table (a folder always imports itself; tools
 * import anything, tests' fakes included). A folder outside the table otherwise answers undefined: the caller decides
 * (the test fails on it, the linter has no zone for it).
 * @param {Layer[]} layers
 */
function importAllowed(layers, from, to) {
  if (from === to) return true;
  const source = layers.find((layer) => layer.folders.includes(from));
  const target = layers.find((layer) => layer.folders.includes(to));
  if (source?.mayImport === 'anything') return true;
  if (!source || !target) return undefined;
  return source.mayImport.includes(target.name);
}

module.exports = { readLayerTable, importAllowed, LAYOUT_PAGE };

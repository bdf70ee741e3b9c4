// Runs a TypeScript entry point in a child process of a test, compiling each file with the same swc transform jest
// uses, so a test can spawn a real CLI (e.g. `keel kb-mcp` over stdio) without a prior `npm run build`.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const swc = require('@swc/core');

Module._extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};

const [entry, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], entry, ...args];
require(path.resolve(entry));

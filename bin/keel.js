#!/usr/bin/env node
// `npx keel …`: runs the compiled CLI, compiling it first on a checkout that has not been built yet.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const entry = path.join(__dirname, '..', 'dist', 'cli', 'keel.js');
if (!fs.existsSync(entry)) {
  const setup = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'setup.js'), '--build'], {
    stdio: 'inherit',
  });
  if (setup.status !== 0) process.exit(setup.status ?? 1);
}
require(entry);

#!/usr/bin/env node
// Runs before `npm start` and `npm test`, so a fresh clone needs no other set-up step.
// Plain Node with no dependencies: it runs before node_modules exists.
//   1. installs npm dependencies (npm ci) when node_modules is missing or older than package-lock.json;
//   2. provisions the Temporal CLI (dev server + UI) when none is found;
//   3. with --build, compiles the TypeScript sources into dist/.
'use strict';

const { execFileSync, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
// v1.5.1 (server 1.29, UI 2.42) is the newest release `go install` can build: later ones carry a local `replace`.
const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';
const localCli = path.join(root, '.temporal', 'bin', 'temporal');

function log(message) {
  process.stderr.write(`[setup] ${message}\n`);
}

function lockDigest() {
  const lock = path.join(root, 'package-lock.json');
  const source = fs.existsSync(lock) ? lock : path.join(root, 'package.json');
  return crypto.createHash('sha256').update(fs.readFileSync(source)).digest('hex');
}

function ensureDependencies() {
  const stamp = path.join(root, 'node_modules', '.keel-install-stamp');
  const digest = lockDigest();
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === digest) return;
  // `npm ci`: exactly the locked versions. package-lock.json holds every platform's native optional packages
  // (docs/npm-lockfile.md says how it stays so), so it installs on Linux and macOS alike.
  log('installing npm dependencies (npm ci)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    log('npm ci failed; see the output above (after changing package.json, `npm install` updates package-lock.json)');
    process.exit(result.status ?? 1);
  }
  fs.writeFileSync(stamp, digest);
}

function onPath(command) {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** Same order as temporal/cli-path.ts: TEMPORAL_CLI_PATH, PATH, then .temporal/bin. */
function findTemporalCli() {
  if (process.env.TEMPORAL_CLI_PATH)
    return fs.existsSync(process.env.TEMPORAL_CLI_PATH) ? process.env.TEMPORAL_CLI_PATH : undefined;
  return onPath('temporal') ?? (fs.existsSync(localCli) ? localCli : undefined);
}

function ensureTemporalCli() {
  if (process.env.TEMPORAL_ADDRESS && process.env.npm_lifecycle_event === 'prestart') return;
  if (process.env.TEMPORAL_CLI_PATH && !fs.existsSync(process.env.TEMPORAL_CLI_PATH)) {
    log(`TEMPORAL_CLI_PATH=${process.env.TEMPORAL_CLI_PATH} does not exist`);
    process.exit(1);
  }
  const found = findTemporalCli();
  if (found) return;
  const go = onPath('go');
  if (!go) {
    log('no Temporal CLI and no Go toolchain: the Temporal SDK will download its cached CLI on first use');
    return;
  }
  log(`building the Temporal CLI: go install ${TEMPORAL_CLI_MODULE} (a few minutes, once)`);
  fs.mkdirSync(path.dirname(localCli), { recursive: true });
  const result = spawnSync(go, ['install', TEMPORAL_CLI_MODULE], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, GOBIN: path.dirname(localCli), GOFLAGS: '-mod=mod' },
  });
  if (result.status !== 0 || !fs.existsSync(localCli)) {
    log('go install of the Temporal CLI failed; set TEMPORAL_CLI_PATH to an existing binary or TEMPORAL_ADDRESS');
    process.exit(result.status || 1);
  }
  log(`Temporal CLI ready at ${path.relative(root, localCli)}`);
}

/** tsc into dist/, then the SQL migrations beside the compiled db layer, then the prebuilt workflow bundle. */
function build() {
  log('compiling TypeScript (tsc -p tsconfig.build.json)');
  const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  fs.cpSync(path.join(root, 'db', 'migrations'), path.join(root, 'dist', 'db', 'migrations'), { recursive: true });
  execFileSync(process.execPath, [path.join(root, 'dist', 'temporal', 'bundle-workflows.js')], {
    cwd: root,
    stdio: 'inherit',
  });
  buildConsoleWeb();
}

/** The console's browser code (console/web) into static assets under dist/console/web, which the console serves. */
function buildConsoleWeb() {
  log('building the console web app (vite build console/web)');
  const vite = path.join(path.dirname(require.resolve('vite/package.json', { paths: [root] })), 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', 'console/web', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

ensureDependencies();
ensureTemporalCli();
if (process.argv.includes('--build')) build();

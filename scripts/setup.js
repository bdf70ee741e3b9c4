#!/usr/bin/env node
// Runs before `npm start` and `npm test`, so a fresh clone needs no other set-up step.
// Plain Node with no dependencies: it runs before node_modules exists.
//   1. provisions the Temporal CLI (dev server + UI) when none is found: from the per-user cache, or by
//      `go install` into that cache, in the background while the steps below run;
//   2. installs npm dependencies (npm ci) when node_modules is missing or older than package-lock.json;
//   3. with --build, compiles what changed since the last build into dist/ (TypeScript, the workflow bundle,
//      the console web app), each step skipped when its inputs are unchanged.
// Every step prints one line with its time, so a slow start says where the time went.
'use strict';

const { execFileSync, spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
// v1.5.1 (server 1.29, UI 2.42) is the newest release `go install` can build: later ones carry a local `replace`.
const TEMPORAL_CLI_VERSION = 'v1.5.1';
const TEMPORAL_CLI_MODULE = `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`;
const localCli = path.join(root, '.temporal', 'bin', 'temporal');
// One build per machine and user, shared by every clone: a second clone (or CI's clean clone) starts in seconds.
const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
const cachedCli = path.join(cacheHome, 'keel', 'temporal-cli', TEMPORAL_CLI_VERSION, 'temporal');
const stampsFile = path.join(root, 'dist', '.build-stamps.json');

function log(message) {
  process.stderr.write(`[setup] ${message}\n`);
}

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** Runs one named step and prints its time; a step returns a short note ("skipped: unchanged") or nothing. */
function step(name, run) {
  const started = Date.now();
  const note = run();
  log(`${name}: ${note ?? 'done'} (${seconds(started)})`);
}

function lockDigest() {
  const lock = path.join(root, 'package-lock.json');
  const source = fs.existsSync(lock) ? lock : path.join(root, 'package.json');
  return crypto.createHash('sha256').update(fs.readFileSync(source)).digest('hex');
}

function ensureDependencies() {
  const stamp = path.join(root, 'node_modules', '.keel-install-stamp');
  const digest = lockDigest();
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === digest) return 'up to date';
  // `npm ci`: exactly the locked versions. package-lock.json holds every platform's native optional packages
  // (docs/npm-lockfile.md says how it stays so), so it installs on Linux and macOS alike.
  log('installing npm dependencies (npm ci)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    log('npm ci failed; see the output above (after changing package.json, `npm install` updates package-lock.json)');
    process.exit(result.status ?? 1);
  }
  fs.writeFileSync(stamp, digest);
  return 'installed';
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

/** A hard link when the cache shares the clone's file system (the binary is ~250 MB), a copy otherwise. */
function linkFromCache() {
  fs.mkdirSync(path.dirname(localCli), { recursive: true });
  fs.rmSync(localCli, { force: true });
  try {
    fs.linkSync(cachedCli, localCli);
  } catch {
    fs.copyFileSync(cachedCli, localCli);
    fs.chmodSync(localCli, 0o755);
  }
}

/**
 * Resolves when a Temporal CLI is in place. The `go install` (minutes on a new machine: the long pole of a cold
 * start) runs as a child process, so npm install and the build proceed meanwhile.
 */
function ensureTemporalCli() {
  if (process.env.TEMPORAL_ADDRESS && process.env.npm_lifecycle_event === 'prestart') return Promise.resolve();
  if (process.env.TEMPORAL_CLI_PATH && !fs.existsSync(process.env.TEMPORAL_CLI_PATH)) {
    log(`TEMPORAL_CLI_PATH=${process.env.TEMPORAL_CLI_PATH} does not exist`);
    process.exit(1);
  }
  if (findTemporalCli()) return Promise.resolve();
  if (fs.existsSync(cachedCli)) {
    step('Temporal CLI', () => {
      linkFromCache();
      return `from the cache ${cachedCli}`;
    });
    return Promise.resolve();
  }
  const go = onPath('go');
  if (!go) {
    log('no Temporal CLI and no Go toolchain: the Temporal SDK will download its cached CLI on first use');
    return Promise.resolve();
  }
  const started = Date.now();
  const buildLog = path.join(root, '.temporal', 'go-install.log');
  fs.mkdirSync(path.dirname(buildLog), { recursive: true });
  log(
    `Temporal CLI: building with go install ${TEMPORAL_CLI_MODULE} in the background (minutes, once per machine; ${path.relative(root, buildLog)})`,
  );
  const output = fs.openSync(buildLog, 'w');
  const child = spawn(go, ['install', '-trimpath', '-ldflags=-s -w', TEMPORAL_CLI_MODULE], {
    cwd: root,
    stdio: ['ignore', output, output],
    env: { ...process.env, GOBIN: path.dirname(cachedCli), GOFLAGS: '-mod=mod' },
  });
  process.on('exit', () => child.exitCode === null && child.kill());
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      fs.closeSync(output);
      if (code !== 0 || !fs.existsSync(cachedCli)) {
        process.stderr.write(fs.readFileSync(buildLog, 'utf8').slice(-4000));
        log('go install of the Temporal CLI failed; set TEMPORAL_CLI_PATH to an existing binary or TEMPORAL_ADDRESS');
        process.exit(code || 1);
      }
      linkFromCache();
      log(`Temporal CLI: built into ${cachedCli} (${seconds(started)})`);
      resolve();
    });
  });
}

const IGNORED_DIRS = new Set(['node_modules', 'dist', '.data', '.temporal', '.git', 'coverage']);

/** Every file under `dirs` (relative to the root) whose name passes `keep`, recursively. */
function listFiles(dirs, keep) {
  const files = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!IGNORED_DIRS.has(entry.name)) walk(full);
      } else if (keep(full)) files.push(full);
    }
  };
  for (const dir of dirs) walk(path.join(root, dir));
  return files.sort();
}

/** A fingerprint of the inputs from names, sizes and modification times: cheap enough to take on every start. */
function fingerprint(files) {
  const hash = crypto.createHash('sha256');
  for (const file of files) {
    const stat = fs.statSync(file);
    hash.update(`${path.relative(root, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

function readStamps() {
  try {
    return JSON.parse(fs.readFileSync(stampsFile, 'utf8'));
  } catch {
    return {};
  }
}

/** Runs `build` unless its inputs match the last successful build and its output is still there. */
function incremental(stamps, name, { inputs, output, build }) {
  step(name, () => {
    const digest = fingerprint([...inputs(), path.join(root, 'package-lock.json')].filter(fs.existsSync));
    if (stamps[name] === digest && fs.existsSync(path.join(root, output))) return 'skipped, unchanged';
    build();
    stamps[name] = digest;
    fs.writeFileSync(stampsFile, JSON.stringify(stamps, null, 2));
    return 'built';
  });
}

const topLevelDirs = () =>
  fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !IGNORED_DIRS.has(entry.name) && entry.name !== 'test')
    .map((entry) => entry.name);
const isSource = (file) =>
  /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes(`${path.sep}web${path.sep}`);

function build() {
  const stamps = readStamps();
  const node = (script, args) => execFileSync(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit' });
  incremental(stamps, 'TypeScript (tsc -p tsconfig.build.json)', {
    inputs: () => [
      ...listFiles(topLevelDirs(), isSource),
      ...['tsconfig.json', 'tsconfig.build.json'].map((f) => path.join(root, f)),
    ],
    output: 'dist/stack/main.js',
    build: () =>
      node(require.resolve('typescript/bin/tsc', { paths: [root] }), [
        '-p',
        'tsconfig.build.json',
        '--incremental',
        '--tsBuildInfoFile',
        'dist/.tsbuildinfo',
      ]),
  });
  step('SQL migrations into dist/db/migrations', () => {
    fs.cpSync(path.join(root, 'db', 'migrations'), path.join(root, 'dist', 'db', 'migrations'), { recursive: true });
  });
  // The bundle holds only workflow code, which imports nothing outside workflows/ and pure/ (a lint rule).
  incremental(stamps, 'workflow bundle (dist/workflow-bundle.js)', {
    inputs: () => listFiles(['workflows', 'pure', 'temporal'], isSource),
    output: 'dist/workflow-bundle.js',
    build: () => node(path.join(root, 'dist', 'temporal', 'bundle-workflows.js'), []),
  });
  // The console's browser code (console/web) into static assets under dist/console/web, which the console serves.
  incremental(stamps, 'console web app (vite build console/web)', {
    inputs: () => listFiles(['console/web'], () => true),
    output: 'dist/console/web/index.html',
    build: () => {
      const vite = path.join(path.dirname(require.resolve('vite/package.json', { paths: [root] })), 'bin', 'vite.js');
      node(vite, ['build', 'console/web', '--logLevel', 'warn']);
    },
  });
}

async function main() {
  const started = Date.now();
  // An image build (deploy/Dockerfile) runs no Temporal server of its own: it points at one with TEMPORAL_ADDRESS.
  const temporalCli = process.argv.includes('--no-temporal-cli') ? Promise.resolve() : ensureTemporalCli();
  step('npm dependencies', ensureDependencies);
  if (process.argv.includes('--build')) build();
  await temporalCli;
  log(`ready (${seconds(started)})`);
}

main();

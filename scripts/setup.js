#!/usr/bin/env node
// Runs before `npm start` and `npm test`, so a fresh clone needs no other set-up step.
// Plain Node with no dependencies: it runs before node_modules exists.
//   1. provisions the Temporal CLI (dev server + UI) when none is found: from the per-user cache, else by downloading
//      the pinned release into that cache (seconds), else, when the download fails, by `go install` (minutes), in
//      the background while the steps below run;
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

/**
 * The released build of TEMPORAL_CLI_VERSION (GitHub release assets, as the CLI's install script and the SDK's own
 * download serve them): seconds to fetch, where `go install` takes 2.5–10 minutes. Each archive's SHA-256 is pinned, so
 * a download is used only if it is byte for byte the release. The sums are the ones hermit-packages
 * (cashapp/hermit-packages, temporal-cli.hcl) records for these assets; a machine without GitHub access could not
 * check them, and a mismatch only means the go install fallback runs.
 */
const RELEASE_SHA256 = {
  linux_amd64: 'ddc95e08b0b076efd4ea9733a3f488eb7d2be875f8834e616cd2a37358b4852d',
  linux_arm64: 'bd1b0db9f18b051026de8bf6cc1505f2510f14bbb7a8b9a4a91fff46c77454f5',
  darwin_amd64: 'bbb73e2a31135abe50a1f1cdb35030c42961df618e8ce9c60ae89f201540c5d9',
  darwin_arm64: 'cca01b7ea35ad56e2a328d9ae596bf716bd22313ef63c7a761c88354457c2415',
};
/** No answer (connect, headers) within this, or no byte for this long mid-download: give up and build instead. */
const DOWNLOAD_STALL_MS = 15_000;
/** The whole download, whatever its pace: a slow link is better served by the build than by a 20-minute fetch. */
const DOWNLOAD_TOTAL_MS = 5 * 60_000;

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

/**
 * True when node_modules holds exactly what package-lock.json locks, as a finished `npm ci` (or `npm install`) left it:
 * npm writes node_modules/.package-lock.json, the packages it put on disk, last. Each of them must be locked at the
 * same version and integrity, and each locked package missing from disk must be optional (another platform's native
 * build). A plain `npm ci` deletes node_modules with our stamp in it; this tells that fresh install from a stale one,
 * so `npm ci && npm run build` installs once, not twice.
 */
function installedAsLocked(dir = root) {
  let locked;
  let installed;
  try {
    locked = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')).packages;
    installed = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', '.package-lock.json'), 'utf8')).packages;
  } catch {
    return false;
  }
  if (!locked || !installed) return false;
  for (const [name, entry] of Object.entries(installed)) {
    const lock = locked[name];
    if (!lock || lock.version !== entry.version || lock.integrity !== entry.integrity) return false;
  }
  for (const [name, lock] of Object.entries(locked)) {
    if (name === '' || installed[name] || lock.link) continue;
    if (!lock.optional && !lock.devOptional) return false;
  }
  return true;
}

function ensureDependencies() {
  const stamp = path.join(root, 'node_modules', '.keel-install-stamp');
  const digest = lockDigest();
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === digest) return 'up to date';
  if (installedAsLocked()) {
    fs.writeFileSync(stamp, digest);
    return 'up to date (as npm ci left it)';
  }
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

function releaseTarget() {
  const platform = { linux: 'linux', darwin: 'darwin' }[process.platform];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  return platform && arch ? `${platform}_${arch}` : undefined;
}

/** GET `url` following redirects; resolves with the response, rejects on a status other than 200. */
function httpsGet(url, redirects = 5) {
  const https = require('node:https');
  return new Promise((resolve, reject) => {
    const request = https.get(url, { headers: { 'user-agent': 'keel-setup' }, timeout: DOWNLOAD_STALL_MS }, (res) => {
      if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location && redirects > 0) {
        res.resume();
        resolve(httpsGet(new URL(res.headers.location, url).toString(), redirects - 1));
      } else if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`${url} answered ${res.statusCode}`));
      } else resolve(res);
    });
    // `timeout` is socket inactivity: before the connect, between headers, and between chunks of the body.
    request.on('timeout', () =>
      request.destroy(new Error(`no answer from ${new URL(url).host} within ${DOWNLOAD_STALL_MS / 1000} s`)),
    );
    request.on('error', reject);
  });
}

/**
 * `node scripts/setup.js --download-temporal-cli`: fetches the release archive of this platform, checks its pinned
 * SHA-256, and puts its `temporal` at `cachedCli`. Exits 0 when it did, else 1 with the reason as the last line on
 * stderr. A process of its own, as the go install is, because the steps it runs beside (npm ci, tsc) block this one.
 */
async function downloadTemporalCli() {
  const target = releaseTarget();
  if (!target || !RELEASE_SHA256[target]) throw new Error(`no released build for ${process.platform}/${process.arch}`);
  const version = TEMPORAL_CLI_VERSION.slice(1);
  const url = `https://github.com/temporalio/cli/releases/download/${TEMPORAL_CLI_VERSION}/temporal_cli_${version}_${target}.tar.gz`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-temporal-cli-'));
  const total = setTimeout(() => {
    process.stderr.write(`the download took longer than ${DOWNLOAD_TOTAL_MS / 60_000} minutes\n`);
    process.exit(1);
  }, DOWNLOAD_TOTAL_MS);
  try {
    const archive = path.join(work, 'cli.tar.gz');
    const response = await httpsGet(url);
    const hash = crypto.createHash('sha256');
    response.on('data', (chunk) => hash.update(chunk));
    await require('node:stream/promises').pipeline(response, fs.createWriteStream(archive));
    const sum = hash.digest('hex');
    if (sum !== RELEASE_SHA256[target])
      throw new Error(`${url} has SHA-256 ${sum}, not the release's ${RELEASE_SHA256[target]}`);
    execFileSync('tar', ['-xzf', archive, '-C', work, 'temporal']);
    fs.mkdirSync(path.dirname(cachedCli), { recursive: true });
    // Renamed into place whole, so a concurrent start never runs a half-written binary.
    const staged = `${cachedCli}.${process.pid}`;
    fs.copyFileSync(path.join(work, 'temporal'), staged);
    fs.chmodSync(staged, 0o755);
    fs.renameSync(staged, cachedCli);
  } finally {
    clearTimeout(total);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Runs the download in a child process; resolves with undefined when the CLI is in the cache, else the reason. */
function downloadInBackground() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [__filename, '--download-temporal-cli'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    process.on('exit', () => child.exitCode === null && child.kill());
    child.on('exit', (code) => {
      const reason = stderr.trim().split('\n').at(-1) || `exit code ${code}`;
      resolve(code === 0 && fs.existsSync(cachedCli) ? undefined : reason);
    });
  });
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
  const started = Date.now();
  log(`Temporal CLI: downloading the ${TEMPORAL_CLI_VERSION} release in the background`);
  return downloadInBackground().then((failure) => {
    if (failure === undefined) {
      linkFromCache();
      log(`Temporal CLI: downloaded into ${cachedCli} (${seconds(started)})`);
      return undefined;
    }
    log(`Temporal CLI: the download failed after ${seconds(started)}: ${failure}`);
    return goInstallTemporalCli();
  });
}

/** The fallback: builds the pinned CLI from its Go module into the cache (minutes, once per machine and user). */
function goInstallTemporalCli() {
  const go = onPath('go');
  if (!go) {
    log('no Go toolchain to build the Temporal CLI either: the Temporal SDK will download its cached CLI on first use');
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
  if (process.argv.includes('--download-temporal-cli')) {
    try {
      await downloadTemporalCli();
      process.exit(0);
    } catch (err) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
  }
  const started = Date.now();
  // An image build (deploy/Dockerfile) runs no Temporal server of its own: it points at one with TEMPORAL_ADDRESS.
  const temporalCli = process.argv.includes('--no-temporal-cli') ? Promise.resolve() : ensureTemporalCli();
  step('npm dependencies', ensureDependencies);
  if (process.argv.includes('--build')) build();
  await temporalCli;
  log(`ready (${seconds(started)})`);
}

if (require.main === module) main();
module.exports = { installedAsLocked };

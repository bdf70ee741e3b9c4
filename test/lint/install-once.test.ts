import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// scripts/setup.js is plain CommonJS that runs before node_modules exists; its check is exported for this test.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { installedAsLocked } = require('../../scripts/setup.js') as { installedAsLocked: (dir: string) => boolean };

const root = path.resolve(__dirname, '../..');
type Lock = { packages: Record<string, { version?: string; integrity?: string; optional?: boolean; dev?: boolean }> };

/**
 * A project directory holding this checkout's package-lock.json and the node_modules/.package-lock.json its `npm ci`
 * wrote, each after `change`.
 */
function project(change: (lock: Lock, installed: Lock) => void = () => undefined): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-setup-'));
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as Lock;
  const installed = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', '.package-lock.json'), 'utf8')) as Lock;
  change(lock, installed);
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock));
  fs.writeFileSync(path.join(dir, 'node_modules', '.package-lock.json'), JSON.stringify(installed));
  return dir;
}

const dirs: string[] = [];
const made = (dir: string) => (dirs.push(dir), dir);
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

test('what `npm ci` left in node_modules counts as installed: no second install', () => {
  expect(installedAsLocked(made(project()))).toBe(true);
});

test('a lock that moved on since the install does not', () => {
  const bumped = made(project((lock) => (lock.packages['node_modules/pg']!.version = '9.0.0')));
  expect(installedAsLocked(bumped)).toBe(false);
  const added = made(project((lock) => (lock.packages['node_modules/left-pad'] = { version: '1.3.0', dev: true })));
  expect(installedAsLocked(added)).toBe(false);
});

test("a locked package missing from disk is fine only when optional (another platform's native build)", () => {
  const optional = made(
    project((lock) => (lock.packages['node_modules/other-os'] = { version: '1.0.0', optional: true })),
  );
  expect(installedAsLocked(optional)).toBe(true);
});

test('no record of an install (node_modules deleted or an install cut off) does not count', () => {
  const dir = made(project());
  fs.rmSync(path.join(dir, 'node_modules', '.package-lock.json'));
  expect(installedAsLocked(dir)).toBe(false);
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/**
 * Builds console/web into a fresh directory, so a browser test always runs the sources it sits beside (not whatever
 * dist/ a previous build left). Vite is ESM-only and jest's runtime is CommonJS, so it runs as its own process.
 */
export async function buildWebApp(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-console-web-'));
  const vite = path.join(path.dirname(require.resolve('vite/package.json', { paths: [root] })), 'bin', 'vite.js');
  execFileSync(
    process.execPath,
    [vite, 'build', 'console/web', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error', '--sourcemap', 'false'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

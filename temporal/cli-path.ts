import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config/paths';

/** The pinned Temporal CLI release (server 1.29, UI 2.42), downloaded (or, failing that, built) by scripts/setup.js. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

/**
 * Finds the Temporal CLI: TEMPORAL_CLI_PATH, then `temporal` on PATH, then .temporal/bin/temporal.
 * Returns undefined when there is none (the SDK's cached download is then the last resort).
 */
export function findTemporalCli(configured?: string): string | undefined {
  if (configured) {
    if (!fs.existsSync(configured)) throw new Error(`TEMPORAL_CLI_PATH=${configured} does not exist`);
    return configured;
  }
  try {
    const onPath = execFileSync('sh', ['-c', 'command -v temporal'], { encoding: 'utf8' }).trim();
    if (onPath) return onPath;
  } catch {
    // not on PATH
  }
  const local = path.join(projectRoot(), '.temporal', 'bin', 'temporal');
  return fs.existsSync(local) ? local : undefined;
}

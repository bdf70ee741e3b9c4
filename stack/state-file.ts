import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** What a running `npm start` tells other local commands (`npx keel ...`) about itself. */
export const stackState = z.object({
  pid: z.number().int(),
  api_url: z.string(),
  temporal_ui_url: z.string().optional(),
  temporal_address: z.string(),
  /** Only set when the database is the embedded one. */
  embedded_postgres_dsn: z.string().optional(),
});
export type StackState = z.infer<typeof stackState>;

export function stackStatePath(dataDir: string): string {
  return path.join(dataDir, 'stack.json');
}

export function devTokenPath(dataDir: string): string {
  return path.join(dataDir, 'dev-token');
}

/** The state of a running stack, or undefined when none is running (a stale file is ignored). */
export function readStackState(dataDir: string): StackState | undefined {
  try {
    const state = stackState.parse(JSON.parse(fs.readFileSync(stackStatePath(dataDir), 'utf8')));
    process.kill(state.pid, 0);
    return state;
  } catch {
    return undefined;
  }
}

export function readDevToken(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(devTokenPath(dataDir), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

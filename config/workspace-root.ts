import path from 'node:path';

/** Job workspaces: WORKSPACE_DIR, else DATA_DIR/workspaces. The API reads what workers wrote there. */
export function workspaceRoot(env: { DATA_DIR: string; WORKSPACE_DIR?: string }): string {
  return path.resolve(env.WORKSPACE_DIR ?? path.join(env.DATA_DIR, 'workspaces'));
}

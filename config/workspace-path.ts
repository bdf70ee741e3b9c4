import path from 'node:path';

const MAX_PATH_LENGTH = 240;

/**
 * Resolves a model-supplied relative path inside a job's workspace, or explains why it is refused.
 * Absolute paths, `..` segments, backslashes and control characters never leave the workspace.
 */
export function resolveWorkspacePath(
  workspaceRoot: string,
  jobId: string,
  relative: string,
): { ok: true; absolute: string; normalized: string } | { ok: false; reason: string } {
  if (relative.length === 0 || relative.length > MAX_PATH_LENGTH) {
    return { ok: false, reason: `path must be 1..${MAX_PATH_LENGTH} characters` };
  }

  if (/[\u0000-\u001f\\]/.test(relative)) return { ok: false, reason: 'path has control characters or backslashes' };
  if (path.posix.isAbsolute(relative)) return { ok: false, reason: 'path must be relative to the workspace' };
  const normalized = path.posix.normalize(relative);
  if (normalized.split('/').includes('..') || normalized === '.') {
    return { ok: false, reason: 'path must stay inside the workspace' };
  }
  const jobDir = path.join(workspaceRoot, jobId);
  return { ok: true, absolute: path.join(jobDir, normalized), normalized };
}

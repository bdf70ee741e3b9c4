import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A git command failed; its message never contains the clone token. */
export class GitError extends Error {
  override name = 'GitError';
}

/** Replaces every occurrence of each secret (raw and URL-encoded) with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out;
}

/**
 * Runs the system `git` with an argument array (no shell), never prompting for credentials. Errors are rethrown as
 * GitError with `secrets` redacted from the message, since git echoes the clone address (and so the token) on failure.
 */
export async function git(
  args: string[],
  options: { cwd?: string; secrets?: readonly string[]; signal?: AbortSignal } = {},
): Promise<string> {
  try {
    const { stdout } = await run('git', args, {
      cwd: options.cwd,
      signal: options.signal,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', LC_ALL: 'C' },
    });
    return stdout;
  } catch (err) {
    const e = err as Error & { stderr?: string };
    const detail = (e.stderr?.trim() || e.message).split('\n').slice(-3).join(' ');
    throw new GitError(redact(`git ${args[0]} failed: ${detail}`, options.secrets ?? []));
  }
}

/** A shallow, single-branch clone of `branch` into `dir` (which must not exist or be empty). */
export async function shallowClone(input: {
  url: string;
  branch: string;
  dir: string;
  secrets?: readonly string[];
  signal?: AbortSignal;
}): Promise<void> {
  await git(
    ['clone', '--quiet', '--depth', '1', '--single-branch', '--branch', input.branch, '--', input.url, input.dir],
    {
      secrets: input.secrets,
      signal: input.signal,
    },
  );
}

/** The full SHA of HEAD in a working tree. */
export async function headSha(dir: string, signal?: AbortSignal): Promise<string> {
  return (await git(['rev-parse', 'HEAD'], { cwd: dir, signal })).trim();
}

/**
 * The SHA `branch` points at on the remote, without fetching anything (`git ls-remote`); undefined when the remote has
 * no such branch or tag. A branch wins over a tag of the same name, as `git clone --branch` prefers it; a tag reads
 * as the commit it points at.
 */
export async function remoteHead(input: {
  url: string;
  branch: string;
  secrets?: readonly string[];
  signal?: AbortSignal;
}): Promise<string | undefined> {
  const out = await git(['ls-remote', '--', input.url, input.branch], { secrets: input.secrets, signal: input.signal });
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [sha, ref] = line.trim().split(/\s+/);
    if (sha && ref) refs.set(ref, sha);
  }
  const { branch } = input;
  return refs.get(`refs/heads/${branch}`) ?? refs.get(`refs/tags/${branch}^{}`) ?? refs.get(`refs/tags/${branch}`);
}

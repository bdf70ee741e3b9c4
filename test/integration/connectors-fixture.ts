import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A directory of local git repositories served as `file://<root>/<owner>/<repo>.git` (GITHUB_GIT_BASE_URL's shape). */
export interface GitHost {
  root: string;
  baseUrl: string;
  /** Creates or updates `<owner>/<repo>` with these files (a Buffer for binary content) and commits; returns HEAD. */
  commit(owner: string, repo: string, files: Record<string, string | Buffer>, remove?: string[]): Promise<string>;
  close(): Promise<void>;
}

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'user.name=Keel Test', '-c', 'user.email=test@keel.invalid', ...args], {
    cwd,
  });
  return stdout.trim();
}

export async function createGitHost(): Promise<GitHost> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-githost-'));
  return {
    root,
    baseUrl: `file://${root}`,
    async commit(owner, repo, files, remove = []) {
      const dir = path.join(root, owner, `${repo}.git`);
      const fresh = !(await fs.stat(dir).catch(() => undefined));
      if (fresh) {
        await fs.mkdir(dir, { recursive: true });
        await git(dir, ['init', '--quiet', '-b', 'main']);
      }
      for (const [relative, content] of Object.entries(files)) {
        const file = path.join(dir, ...relative.split('/'));
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(file, content);
      }
      for (const relative of remove) await fs.rm(path.join(dir, ...relative.split('/')));
      await git(dir, ['add', '-A']);
      await git(dir, ['commit', '--quiet', '-m', fresh ? 'initial' : 'update']);
      return git(dir, ['rev-parse', 'HEAD']);
    },
    close: () => fs.rm(root, { recursive: true, force: true }),
  };
}

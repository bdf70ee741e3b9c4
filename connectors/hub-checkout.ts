import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { git } from './github/git';

/** The password of a URL's user part (a token in an https hub address), to keep out of errors and logs. */
function credentialsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [parsed.password, parsed.username].filter((part) => part.length > 0).map(decodeURIComponent);
  } catch {
    return [];
  }
}

/**
 * A fresh working directory for one run holding a clone of the curated hub (`KB_HUB_URL`, any git URL; shallow, as the
 * run only reads it), or an empty directory when no hub is configured. `discard()` removes it; call it in `finally`.
 */
export async function checkoutHub(
  hubUrl: string | undefined,
  signal?: AbortSignal,
): Promise<{ dir: string; discard(): Promise<void> }> {
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-connector-run-'));
  const dir = path.join(parent, 'hub');
  const discard = () => fs.rm(parent, { recursive: true, force: true });
  try {
    if (hubUrl) {
      await git(['clone', '--quiet', '--depth', '1', '--', hubUrl, dir], { secrets: credentialsOf(hubUrl), signal });
    } else {
      await fs.mkdir(dir);
    }
  } catch (err) {
    await discard();
    throw err;
  }
  return { dir, discard };
}

/**
 * Publishing a static build to Vercel over its REST deployments API: each file is uploaded by SHA-1
 * (`POST /v2/files`), a deployment is created from the list of (path, sha, size) (`POST /v13/deployments`), and the
 * deployment is polled (`GET /v13/deployments/:id`) until its `readyState` is `READY` or `ERROR`. The base URL is
 * configurable so tests run against a local server speaking the same wire (test/fakes/fake-vercel.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export interface VercelSettings {
  /** `https://api.vercel.com` unless a test or proxy says otherwise. */
  apiUrl: string;
  token: string;
  /** Deploy on behalf of this team (`teamId` query parameter). */
  teamId?: string;
  /** Readiness polling: interval and give-up time. */
  pollIntervalMs: number;
  readyTimeoutMs: number;
}

export type DeployOutcome =
  | { ok: true; deploymentId: string; url: string; readyState: string; files: number }
  | { ok: false; status: number | null; message: string; deploymentId?: string };

export const VERCEL_API_URL = 'https://api.vercel.com';

const deploymentBody = z.looseObject({
  id: z.string(),
  url: z.string(),
  readyState: z.string(),
  errorMessage: z.string().nullish(),
});
const errorBody = z.looseObject({ error: z.looseObject({ code: z.string().optional(), message: z.string() }) });

/** Every file under `dir`, as Vercel wants them: forward-slash paths relative to `dir`. */
async function filesUnder(dir: string): Promise<Array<{ file: string; data: Buffer }>> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files: Array<{ file: string; data: Buffer }> = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files.push({ file: path.relative(dir, absolute).split(path.sep).join('/'), data: await fs.readFile(absolute) });
  }
  return files.sort((a, b) => a.file.localeCompare(b.file));
}

async function messageOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const parsed = errorBody.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.error.message;
  } catch {
    // not JSON: the text itself is the best message there is
  }
  return text.slice(0, 500) || `HTTP ${response.status}`;
}

/**
 * Deploys the files under `dir` as project `name`. Resolves with the outcome for anything Vercel answers (an error
 * body's message included); rejects only when Vercel cannot be reached at all, which a retry may cure.
 */
export async function deployStaticSite(
  settings: VercelSettings,
  dir: string,
  name: string,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<DeployOutcome> {
  const url = (pathname: string) => {
    const target = new URL(pathname, settings.apiUrl);
    if (settings.teamId) target.searchParams.set('teamId', settings.teamId);
    return target;
  };
  const auth = { authorization: `Bearer ${settings.token}` };
  const files = await filesUnder(dir);
  if (files.length === 0) return { ok: false, status: null, message: `nothing to deploy: ${dir} is empty` };

  const manifest: Array<{ file: string; sha: string; size: number }> = [];
  for (const { file, data } of files) {
    const sha = crypto.createHash('sha1').update(data).digest('hex');
    const uploaded = await fetch(url('/v2/files'), {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/octet-stream',
        'content-length': String(data.length),
        'x-vercel-digest': sha,
      },
      body: data,
    });
    if (!uploaded.ok) return { ok: false, status: uploaded.status, message: await messageOf(uploaded) };
    await uploaded.arrayBuffer();
    manifest.push({ file, sha, size: data.length });
  }

  const created = await fetch(url('/v13/deployments'), {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name, files: manifest, projectSettings: { framework: null }, target: 'production' }),
  });
  if (!created.ok) return { ok: false, status: created.status, message: await messageOf(created) };
  let deployment = deploymentBody.parse(await created.json());

  const deadline = Date.now() + settings.readyTimeoutMs;
  while (deployment.readyState !== 'READY') {
    if (deployment.readyState === 'ERROR' || deployment.readyState === 'CANCELED') {
      return {
        ok: false,
        status: null,
        deploymentId: deployment.id,
        message: deployment.errorMessage ?? `deployment ${deployment.id} ended ${deployment.readyState}`,
      };
    }
    if (Date.now() > deadline) {
      return {
        ok: false,
        status: null,
        deploymentId: deployment.id,
        message: `deployment ${deployment.id} not ready after ${settings.readyTimeoutMs} ms (still ${deployment.readyState})`,
      };
    }
    await sleep(settings.pollIntervalMs);
    const polled = await fetch(url(`/v13/deployments/${encodeURIComponent(deployment.id)}`), { headers: auth });
    if (!polled.ok)
      return { ok: false, status: polled.status, deploymentId: deployment.id, message: await messageOf(polled) };
    deployment = deploymentBody.parse(await polled.json());
  }
  return {
    ok: true,
    deploymentId: deployment.id,
    url: deployment.url.startsWith('http') ? deployment.url : `https://${deployment.url}`,
    readyState: deployment.readyState,
    files: manifest.length,
  };
}

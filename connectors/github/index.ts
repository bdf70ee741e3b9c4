import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Connector, ConnectorContext, ConnectorStep } from '../contract';
import { loadGithubConfig, type GithubEnv, type RepoPolicy } from './config';
import { headSha, remoteHead, shallowClone } from './git';
import { renderFileRecord } from './render';
import { decideFile, policyMatchers, walkRepository } from './walk';

/** Spec: a map from `<owner>/<repo>` to the commit SHA last copied. */
export const GithubCursorSchema = z.record(
  z.string().regex(/^[^/\s]+\/[^/\s]+$/),
  z.string().regex(/^[0-9a-f]{40,64}$/),
);
export type GithubCursor = z.infer<typeof GithubCursorSchema>;

/** The clone address `<base>/<owner>/<repo>.git`, with the token as the user part of an http(s) address. */
export function cloneUrl(base: string, policy: RepoPolicy, token: string | undefined): string {
  const address = `${base}/${policy.owner}/${policy.repo}.git`;
  if (!token) return address;
  const url = new URL(address);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return address;
  url.username = 'x-access-token';
  url.password = token;
  return url.toString();
}

/**
 * The code-host connector over already parsed settings. Per repository: the remote's head (`git ls-remote`) compared to
 * the cursor (equal → the repository is skipped without cloning, a cursor-only step), else a shallow single-branch
 * clone (its HEAD compared again, for a branch that moved in between), and every file through the spec's per-file
 * steps, one record each; the repository's cursor entry moves to the new SHA only after its last file, so a crash
 * mid-repository walks it again (writes are idempotent).
 */
export function githubConnector(config: GithubEnv): Connector<GithubCursor> {
  return {
    name: 'github',
    cursorSchema: GithubCursorSchema,
    read: (cursor, context) => readRepositories(config, cursor ?? {}, context),
  };
}

/** From an environment of its variables (CONNECTOR_GITHUB_*, GITHUB_GIT_BASE_URL). */
export function createGithubConnector(env: NodeJS.ProcessEnv): Connector<GithubCursor> {
  return githubConnector(loadGithubConfig(env));
}

async function* readRepositories(
  config: GithubEnv,
  start: GithubCursor,
  context: ConnectorContext,
): AsyncGenerator<ConnectorStep<GithubCursor>> {
  let cursor: GithubCursor = { ...start };
  const token = config.CONNECTOR_GITHUB_AUTH_SECRET_ID
    ? await context.secret(config.CONNECTOR_GITHUB_AUTH_SECRET_ID)
    : undefined;
  const secrets = token ? [token] : [];
  for (const policy of config.CONNECTOR_GITHUB_REPOS) {
    const key = `${policy.owner}/${policy.repo}`;
    const url = cloneUrl(config.GITHUB_GIT_BASE_URL, policy, token);
    // A no-change run asks the remote for its head and stops there: no clone, no walk.
    if (cursor[key]) context.log(`github: asking ${config.GITHUB_GIT_BASE_URL}/${key}.git for ${policy.branch}`);
    const remote = cursor[key]
      ? await remoteHead({ url, branch: policy.branch, secrets, signal: context.signal })
      : undefined;
    if (remote !== undefined && remote === cursor[key]) {
      context.log(`github: ${key} unchanged at ${remote.slice(0, 7)}, skipped`);
      yield { cursor };
      continue;
    }
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-github-'));
    try {
      const checkout = path.join(dir, 'repo');
      // The log names the address without the token; git errors are redacted by shallowClone.
      context.log(`github: cloning ${config.GITHUB_GIT_BASE_URL}/${key}.git (${policy.branch})`);
      await shallowClone({
        url,
        branch: policy.branch,
        dir: checkout,
        secrets,
        signal: context.signal,
      });
      const sha = await headSha(checkout, context.signal);
      if (cursor[key] === sha) {
        context.log(`github: ${key} unchanged at ${sha.slice(0, 7)}, skipped`);
        yield { cursor };
        continue;
      }
      const matchers = policyMatchers(policy);
      const maxFileBytes = policy.max_file_bytes ?? config.CONNECTOR_GITHUB_MAX_FILE_BYTES;
      for await (const repoPath of walkRepository(checkout)) {
        const decision = await decideFile({ root: checkout, repoPath, matchers, maxFileBytes });
        if (!decision.emit) continue;
        yield {
          record: renderFileRecord({ policy, repoPath, text: decision.text, sha, webBase: config.GITHUB_GIT_BASE_URL }),
          cursor,
        };
      }
      cursor = { ...cursor, [key]: sha };
      yield { cursor };
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}

import { z } from 'zod';
import { emptyAsUndefined, parseEnv } from '../../config/parse-env';
import { SensitivitySchema } from '../../kb/sensitivity';

/** The spec's default `max_file_bytes`: 256 KB. */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024;

/** A GitHub owner or repository name: what may appear in `<base>/<owner>/<repo>.git` and a hub path segment. */
const NAME = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/, 'a GitHub name: letters, digits, _ . - (not starting with . or -)');

/** A branch name git accepts and that cannot be taken for an option of `git clone`. */
const BRANCH = z
  .string()
  .min(1)
  .max(255)
  .regex(/^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]+$/, 'a branch name (letters, digits, . _ / -; not starting with -)');

/** One repository the connector copies (spec, "Repo policy"). */
export const RepoPolicySchema = z.strictObject({
  owner: NAME,
  repo: NAME,
  branch: BRANCH.default('main'),
  /** Repo-relative POSIX globs; `**` spans directories and dotfiles match. Default: every file. */
  include_globs: z.array(z.string().min(1).max(500)).max(200).default(['**']),
  exclude_globs: z.array(z.string().min(1).max(500)).max(200).default([]),
  /** Required: a missing level must not read as public. */
  sensitivity: SensitivitySchema,
  tags: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
  /** Overrides CONNECTOR_GITHUB_MAX_FILE_BYTES for this repository. */
  max_file_bytes: z
    .number()
    .int()
    .min(1)
    .max(100 * 1024 * 1024)
    .optional(),
});
export type RepoPolicy = z.infer<typeof RepoPolicySchema>;

const RepoListSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'a JSON list of repo policies, e.g. [{"owner":"o","repo":"r","sensitivity":"internal"}]',
      });
      return z.NEVER;
    }
  })
  .pipe(
    z.array(RepoPolicySchema).refine((list) => new Set(list.map((p) => `${p.owner}/${p.repo}`)).size === list.length, {
      message: 'each owner/repo at most once',
    }),
  );

export const githubEnv = z.object({
  CONNECTOR_GITHUB_REPOS: z.preprocess(emptyAsUndefined, RepoListSchema.default([])),
  /** Bytes; files larger than this are skipped (spec default 256 KB). */
  CONNECTOR_GITHUB_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(100 * 1024 * 1024)
    .default(DEFAULT_MAX_FILE_BYTES),
  /** Clone address is `<base>/<owner>/<repo>.git`; a `file://` base serves local repositories (tests). */
  GITHUB_GIT_BASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^(https?|file)$/ })
      .default('https://github.com')
      .transform((url) => url.replace(/\/+$/, '')),
  ),
  CONNECTOR_GITHUB_AUTH_SECRET_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
});
export type GithubEnv = z.infer<typeof githubEnv>;

export function loadGithubConfig(env: NodeJS.ProcessEnv): GithubEnv {
  return parseEnv(githubEnv, env, 'github connector');
}

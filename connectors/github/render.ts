import type { SourceRecord } from '../contract';
import type { RepoPolicy } from './config';
import { languageOf } from './languages';

/** The link to a file at a commit: `<web base>/<owner>/<repo>/blob/<sha>/<path>` (GitHub's blob URL). */
export function fileUrlAt(webBase: string, owner: string, repo: string, sha: string, repoPath: string): string {
  const encoded = repoPath.split('/').map(encodeURIComponent).join('/');
  return `${webBase}/${owner}/${repo}/blob/${sha}/${encoded}`;
}

/** A fence longer than any backtick run in the text, so a file holding ``` cannot close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The record of one file (spec, "Record body"): heading `<owner>/<repo>:<path>`, a link to the file at the commit, a
 * line with the commit prefix and the branch, then the file verbatim in a fenced block tagged by its language.
 */
export function renderFileRecord(input: {
  policy: RepoPolicy;
  repoPath: string;
  text: string;
  sha: string;
  webBase: string;
}): SourceRecord {
  const { policy, repoPath, text, sha } = input;
  const slug = `${policy.owner}/${policy.repo}`;
  const url = fileUrlAt(input.webBase, policy.owner, policy.repo, sha, repoPath);
  const fence = fenceFor(text);
  const content = text.endsWith('\n') || text === '' ? text : `${text}\n`;
  const body = [
    `# ${slug}:${repoPath}`,
    '',
    `[${repoPath} at ${sha.slice(0, 7)}](${url})`,
    '',
    `Commit \`${sha.slice(0, 7)}\` on branch \`${policy.branch}\``,
    '',
    `${fence}${languageOf(repoPath)}`,
    `${content}${fence}`,
    '',
  ].join('\n');
  return {
    path: `sources/github/${policy.owner}/${policy.repo}/${repoPath}.md`,
    sourceId: `github:${slug}:${repoPath}`,
    title: `${slug}:${repoPath}`,
    sensitivity: policy.sensitivity,
    tags: policy.tags,
    sourceUrl: url,
    extra: { repo: slug, path: repoPath, branch: policy.branch, commit: sha },
    body,
  };
}

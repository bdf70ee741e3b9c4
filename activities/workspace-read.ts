import fs from 'node:fs/promises';
import path from 'node:path';
import { RE2JS } from 're2js';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import type { ToolCall } from '../routing/chat-types';
import { resolveWorkspacePath } from '../config/workspace-path';

/**
 * The executor's read-only workspace tools (docs/toolbelt.md): `read_file`, `list_files` and `search_files`. They
 * change nothing, so a retried activity simply reads again. Every answer is text the model reads, capped so one call
 * cannot flood the level's context; a bad call is an answer that says what to fix, never a thrown error.
 */

/** What the model sees of one file read: past this, the answer stops and says how to read on. */
export const MAX_READ_CHARS = 20_000;
/** The most paths `list_files` names. */
export const MAX_LISTED = 500;
/** The most matching lines `search_files` returns. */
export const MAX_MATCHES = 200;
/** Files larger than this are not searched (generated bundles, data): the answer says which were skipped. */
const MAX_SEARCHED_BYTES = 1_000_000;
/** Trees no one edits by hand; listing or searching them would drown the answer. */
const IGNORED = ['**/node_modules/**', '**/.git/**'];

const readArgs = z.object({
  path: z.string(),
  start_line: z.number().int().min(1).optional(),
  end_line: z.number().int().min(1).optional(),
});
const listArgs = z.object({ pattern: z.string().max(300).optional() });
const searchArgs = z.object({
  query: z.string().min(1).max(500),
  regex: z.boolean().optional(),
  pattern: z.string().max(300).optional(),
});

export const READ_TOOLS = ['read_file', 'list_files', 'search_files'] as const;

function argsOf(call: ToolCall): unknown {
  try {
    return JSON.parse(call.function.arguments || '{}');
  } catch {
    return undefined;
  }
}

/** A glob that is absolute or climbs out (`..`): patterns are relative to the workspace. */
function leavesWorkspace(pattern: string): boolean {
  return pattern.startsWith('/') || pattern.split('/').includes('..');
}

function isText(bytes: Buffer): boolean {
  return !bytes.subarray(0, 8_000).includes(0);
}

export function workspaceReadActivities(deps: { workspaceRoot: string }) {
  const jobDir = (jobId: string) => path.join(deps.workspaceRoot, jobId);

  /**
   * The job's regular files matching `pattern` with their sizes, sorted by path, without the ignored trees and
   * without links (one `lstat` each, which both rules out links and gives the size).
   */
  async function filesOf(jobId: string, pattern = '**/*'): Promise<{ path: string; size: number }[]> {
    const cwd = jobDir(jobId);
    const exists = await fs.stat(cwd).then(
      (stat) => stat.isDirectory(),
      () => false,
    );
    if (!exists) return [];
    const found = await glob(pattern, { cwd, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: IGNORED });
    // Links are left out: one planted by a build could lead anywhere, and reading through it would leave the workspace.
    const stats = await Promise.all(found.map((file) => fs.lstat(path.join(cwd, file)).catch(() => undefined)));
    return found
      .flatMap((file, index) => (stats[index]?.isFile() ? [{ path: file, size: stats[index].size }] : []))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async function readFile(jobId: string, call: ToolCall): Promise<string> {
    const parsed = readArgs.safeParse(argsOf(call));
    if (!parsed.success) return 'read_file needs JSON arguments {"path": string, "start_line"?: int, "end_line"?: int}';
    const { path: relative, start_line: start = 1, end_line: end } = parsed.data;
    const target = resolveWorkspacePath(deps.workspaceRoot, jobId, relative);
    if (!target.ok) return `read_file refused ${JSON.stringify(relative)}: ${target.reason}`;
    // A link planted by a build could point anywhere: read only what really lies inside the job's directory.
    const real = await fs.realpath(target.absolute).catch(() => undefined);
    const root = await fs.realpath(jobDir(jobId)).catch(() => undefined);
    if (!real || !root) return `read_file: ${target.normalized} does not exist; list_files shows what does`;
    if (!real.startsWith(root + path.sep))
      return `read_file refused ${target.normalized}: it leads outside the workspace`;
    const stat = await fs.stat(real);
    if (stat.isDirectory()) return `read_file: ${target.normalized} is a directory; use list_files`;
    const bytes = await fs.readFile(real);
    if (!isText(bytes)) return `read_file: ${target.normalized} is binary (${bytes.length} bytes), not shown`;
    const lines = bytes.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    const last = Math.min(end ?? lines.length, lines.length);
    if (start > Math.max(lines.length, 1)) return `read_file: ${target.normalized} has ${lines.length} lines`;
    let shown = '';
    let line = start;
    for (; line <= last; line += 1) {
      const next = `${String(line).padStart(5)}\t${lines[line - 1]}\n`;
      if (shown.length + next.length > MAX_READ_CHARS) break;
      shown += next;
    }
    const header = `${target.normalized}: lines ${start}-${line - 1} of ${lines.length}`;
    const more = line <= last ? `\n[cut at ${MAX_READ_CHARS} characters: read on with start_line ${line}]` : '';
    return `${header}\n${shown}${more}`;
  }

  async function listFiles(jobId: string, call: ToolCall): Promise<string> {
    const parsed = listArgs.safeParse(argsOf(call));
    if (!parsed.success) return 'list_files takes JSON arguments {"pattern"?: string}, a glob such as src/**/*.ts';
    const pattern = parsed.data.pattern?.trim() || '**/*';
    if (leavesWorkspace(pattern)) {
      return `list_files refused ${JSON.stringify(pattern)}: patterns are relative to the workspace`;
    }
    const files = await filesOf(jobId, pattern);
    if (files.length === 0) return `no files match ${pattern}`;
    const shown = files.slice(0, MAX_LISTED).map((file) => `${file.path}\t${file.size} bytes`);
    const more = files.length > MAX_LISTED ? `\n[${files.length - MAX_LISTED} more: narrow the pattern]` : '';
    return `${files.length} files match ${pattern}\n${shown.join('\n')}${more}`;
  }

  async function searchFiles(jobId: string, call: ToolCall): Promise<string> {
    const parsed = searchArgs.safeParse(argsOf(call));
    if (!parsed.success) {
      return 'search_files needs JSON arguments {"query": string, "regex"?: boolean, "pattern"?: string (a glob)}';
    }
    const { query, regex, pattern } = parsed.data;
    // A model's regular expression runs in RE2's linear time (re2js): a backtracking engine would let a pattern such
    // as (a+)+$ hold the activity until its timeout. RE2 has no lookaround or backreferences; the answer says so.
    let isMatch: (text: string) => boolean;
    try {
      const compiled = regex ? RE2JS.compile(query) : undefined;
      isMatch = compiled ? (text) => compiled.test(text) : (text) => text.includes(query);
    } catch (err) {
      return (
        `search_files: ${JSON.stringify(query)} is not a regular expression this search runs (${(err as Error).message}); ` +
        'it uses RE2 syntax: no lookahead, lookbehind or backreferences'
      );
    }
    if (pattern && leavesWorkspace(pattern)) {
      return `search_files refused ${JSON.stringify(pattern)}: patterns are relative to the workspace`;
    }
    const matches: string[] = [];
    const skipped: string[] = [];
    let total = 0;
    for (const { path: file, size } of await filesOf(jobId, pattern || '**/*')) {
      if (size > MAX_SEARCHED_BYTES) {
        skipped.push(file);
        continue;
      }
      const bytes = await fs.readFile(path.join(jobDir(jobId), file));
      if (!isText(bytes)) continue;
      bytes
        .toString('utf8')
        .split('\n')
        .forEach((text, index) => {
          if (!isMatch(text)) return;
          total += 1;
          if (matches.length < MAX_MATCHES) matches.push(`${file}:${index + 1}: ${text.slice(0, 300)}`);
        });
    }
    const head = total === 0 ? `no line matches ${JSON.stringify(query)}` : `${total} matching lines`;
    const more = total > MAX_MATCHES ? `\n[${total - MAX_MATCHES} more: narrow the query or the pattern]` : '';
    const skips = skipped.length ? `\n[not searched, over ${MAX_SEARCHED_BYTES} bytes: ${skipped.join(', ')}]` : '';
    return [head, ...matches].join('\n') + more + skips;
  }

  return {
    /** Runs one read-only workspace tool call of a level's model; the answer is the tool result it sees. */
    async readWorkspace(input: { jobId: string; call: ToolCall }): Promise<string> {
      switch (input.call.function.name) {
        case 'read_file':
          return readFile(input.jobId, input.call);
        case 'list_files':
          return listFiles(input.jobId, input.call);
        case 'search_files':
          return searchFiles(input.jobId, input.call);
        default:
          return `unknown tool ${input.call.function.name}; the read tools are ${READ_TOOLS.join(', ')}`;
      }
    },
  };
}

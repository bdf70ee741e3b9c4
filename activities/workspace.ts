import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { z } from 'zod';
import { recordJobFile } from '../db/files';
import type { ToolCall } from '../routing/chat-types';
import { applySurgicalEdit } from './file-edit';
import { resolveWorkspacePath } from '../config/workspace-path';

const writeFileArgs = z.object({ path: z.string(), content: z.string() });
const editFileArgs = z.object({ path: z.string(), old: z.string(), new: z.string() });

/**
 * Receipts of applied tool calls live beside the job directories, not in them: a job's workspace
 * holds only what the model wrote. Job ids are allocated by Keel and never start with a dot.
 */
const RECEIPTS_DIR = '.tool-receipts';

export type WorkspaceToolAction = 'created' | 'rewritten' | 'edited';

/** What a workspace tool call returns; `message` is the tool result the model sees. */
export type WorkspaceToolResult =
  | { ok: true; path: string; sha256: string; sizeBytes: number; action: WorkspaceToolAction; message: string }
  | { ok: false; message: string };

/** The earlier name of WorkspaceToolResult, kept for existing callers. */
export type WriteFileResult = WorkspaceToolResult;

/**
 * Proof that a tool call was applied: the file it left behind. Written (atomically) before the
 * file itself is renamed into place, so whenever the file holds these bytes the receipt exists.
 */
interface Receipt {
  path: string;
  sha256: string;
  sizeBytes: number;
  action: WorkspaceToolAction;
}

type Target = { absolute: string; normalized: string };

export function workspaceActivities(deps: { pool: Pool; workspaceRoot: string }) {
  /**
   * Executes a workspace tool call of the L4 executor's model: `write_file {path, content}`
   * creates or replaces a file; `edit_file {path, old, new}` replaces the one exact occurrence of
   * `old` in an existing file (see applySurgicalEdit). Files are written to a temporary name and
   * renamed, and their row in `job_files` is keyed by (job, path). A bad call returns `ok: false`
   * with a message the model sees; only infrastructure failures throw (and are retried).
   *
   * Safe under Temporal retries. A retry re-runs the same input after an attempt that may have
   * changed the file and then died (or lost its result). Re-applying blindly is wrong for edits:
   * the second attempt would find `old` gone and refuse, or, when `new` contains `old`, apply the
   * edit twice. So before a call changes a file, it records a receipt named by a digest of the
   * call (id, tool name, raw arguments: identical across retries) holding the sha256 the file will
   * have. An attempt whose receipt matches the file's current sha256 knows the call was applied:
   * it re-records the row (an upsert) and returns the same result without touching the file. A
   * receipt that does not match (the earlier attempt died before the rename) is ignored and the
   * call runs afresh, overwriting it. A different call that happens to make the same edit gets no
   * such pass; when its `old` is gone, the refusal says the `new` text is already present.
   */
  async function runWorkspaceTool(input: { jobId: string; call: ToolCall }): Promise<WorkspaceToolResult> {
    const { name } = input.call.function;
    if (name === 'write_file') return writeFile(input.jobId, input.call);
    if (name === 'edit_file') return editFile(input.jobId, input.call);
    return { ok: false, message: `unknown tool ${name}; the tools are write_file and edit_file` };
  }

  async function writeFile(jobId: string, call: ToolCall): Promise<WorkspaceToolResult> {
    const args = parseArgs(writeFileArgs, call.function.arguments);
    if (!args) return { ok: false, message: 'write_file needs JSON arguments {"path": string, "content": string}' };
    const target = resolveWorkspacePath(deps.workspaceRoot, jobId, args.path);
    if (!target.ok) return { ok: false, message: `write_file refused ${JSON.stringify(args.path)}: ${target.reason}` };

    const current = await readExisting(target.absolute);
    if (current === 'directory') {
      return { ok: false, message: `write_file refused ${target.normalized}: it is a directory` };
    }
    const replay = await appliedBefore(receiptFile(jobId, call), target, current);
    if (replay) return finish(jobId, replay);

    const bytes = Buffer.from(args.content, 'utf8');
    return commit(jobId, call, target, bytes, current === undefined ? 'created' : 'rewritten');
  }

  async function editFile(jobId: string, call: ToolCall): Promise<WorkspaceToolResult> {
    const args = parseArgs(editFileArgs, call.function.arguments);
    if (!args) {
      return { ok: false, message: 'edit_file needs JSON arguments {"path": string, "old": string, "new": string}' };
    }
    const target = resolveWorkspacePath(deps.workspaceRoot, jobId, args.path);
    if (!target.ok) return { ok: false, message: `edit_file refused ${JSON.stringify(args.path)}: ${target.reason}` };

    const current = await readExisting(target.absolute);
    if (current === undefined) {
      return { ok: false, message: `edit_file needs an existing file; use write_file to create ${target.normalized}` };
    }
    if (current === 'directory') {
      return { ok: false, message: `edit_file refused ${target.normalized}: it is a directory` };
    }
    const replay = await appliedBefore(receiptFile(jobId, call), target, current);
    if (replay) return finish(jobId, replay);

    const text = current.toString('utf8');
    // Decoding invalid UTF-8 substitutes U+FFFD; writing that back would corrupt the other bytes.
    if (!Buffer.from(text, 'utf8').equals(current)) {
      return {
        ok: false,
        message: `edit_file refused ${target.normalized}: it is not UTF-8 text; use write_file to replace it`,
      };
    }
    const edit = applySurgicalEdit(text, args.old, args.new);
    if (!edit.ok) return { ok: false, message: `edit_file refused ${target.normalized}: ${edit.reason}` };
    return commit(jobId, call, target, Buffer.from(edit.content, 'utf8'), 'edited');
  }

  /** Receipt, then file, then row: the order that lets a retry recognise an applied call. */
  async function commit(
    jobId: string,
    call: ToolCall,
    target: Target,
    bytes: Buffer,
    action: WorkspaceToolAction,
  ): Promise<WorkspaceToolResult> {
    if (!(await makeParent(target.absolute))) {
      return { ok: false, message: `${call.function.name} refused ${target.normalized}: a parent of it is a file` };
    }
    const receipt: Receipt = { path: target.normalized, sha256: sha256(bytes), sizeBytes: bytes.length, action };
    const receipts = receiptFile(jobId, call);
    await fs.mkdir(path.dirname(receipts), { recursive: true });
    await writeAtomically(receipts, Buffer.from(JSON.stringify(receipt), 'utf8'), 'receipt');
    // Named by the content hash, so a retry after a crash reuses (and renames away) the same temporary file.
    await writeAtomically(target.absolute, bytes, receipt.sha256.slice(0, 12));
    return finish(jobId, receipt);
  }

  async function finish(jobId: string, receipt: Receipt): Promise<WorkspaceToolResult> {
    const { path: normalized, sha256, sizeBytes, action } = receipt;
    await recordJobFile(deps.pool, jobId, { path: normalized, sha256, sizeBytes });
    return { ok: true, path: normalized, sha256, sizeBytes, action, message: successMessage(receipt) };
  }

  /** The receipt of this very call, when the file still holds exactly what that call left there. */
  async function appliedBefore(
    receipts: string,
    target: Target,
    current: Buffer | undefined,
  ): Promise<Receipt | undefined> {
    if (current === undefined) return undefined;
    const receipt = await readReceipt(receipts);
    if (!receipt || receipt.path !== target.normalized || receipt.sha256 !== sha256(current)) return undefined;
    return receipt;
  }

  function receiptFile(jobId: string, call: ToolCall): string {
    const digest = sha256(Buffer.from(JSON.stringify([call.id, call.function.name, call.function.arguments]), 'utf8'));
    return path.join(deps.workspaceRoot, RECEIPTS_DIR, jobId, `${digest}.json`);
  }

  return {
    runWorkspaceTool,
    /** The earlier name of runWorkspaceTool, kept so existing workflow code (and running histories) still resolve. */
    writeWorkspaceFile: runWorkspaceTool,
  };
}

function successMessage(receipt: Receipt): string {
  const size = `(${receipt.sizeBytes} bytes)`;
  if (receipt.action === 'edited') return `edited ${receipt.path} ${size}`;
  if (receipt.action === 'rewritten') return `rewrote ${receipt.path} ${size}`;
  return `wrote ${receipt.path} ${size}`;
}

function parseArgs<T>(schema: z.ZodType<T>, raw: string): T | undefined {
  try {
    return schema.parse(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

function sha256(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/** The file's bytes; undefined when there is no file at (or on the way to) that path. */
async function readExisting(absolute: string): Promise<Buffer | undefined | 'directory'> {
  try {
    return await fs.readFile(absolute);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'EISDIR') return 'directory';
    throw err;
  }
}

async function readReceipt(file: string): Promise<Receipt | undefined> {
  const bytes = await readExisting(file);
  if (!Buffer.isBuffer(bytes)) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as Receipt;
  } catch {
    // Only written by rename, so never torn; anything unreadable is not a receipt of ours.
    return undefined;
  }
}

/** False when a path component above the file is itself a file: the model's mistake, not a fault. */
async function makeParent(absolute: string): Promise<boolean> {
  try {
    await fs.mkdir(path.dirname(absolute), { recursive: true });
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') return false;
    throw err;
  }
}

async function writeAtomically(absolute: string, bytes: Buffer, tag: string): Promise<void> {
  const temporary = `${absolute}.${tag}.tmp`;
  await fs.writeFile(temporary, bytes);
  await fs.rename(temporary, absolute);
}

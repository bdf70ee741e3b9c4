import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { z } from 'zod';
import { recordJobFile } from '../db/files';
import type { ToolCall } from '../routing/chat-types';
import { resolveWorkspacePath } from './workspace-path';

const writeFileArgs = z.object({ path: z.string(), content: z.string() });

export type WriteFileResult =
  { ok: true; path: string; sha256: string; sizeBytes: number; message: string } | { ok: false; message: string };

export function workspaceActivities(deps: { pool: Pool; workspaceRoot: string }) {
  return {
    /**
     * Executes a `write_file` tool call into the job's workspace. Idempotent: the file is written to
     * a temporary name and renamed, and its row is keyed by (job, path), so a retry after a crash
     * leaves one file and one row. A bad call returns `ok: false` with a message the model sees.
     */
    async writeWorkspaceFile(input: { jobId: string; call: ToolCall }): Promise<WriteFileResult> {
      if (input.call.function.name !== 'write_file') {
        return { ok: false, message: `unknown tool ${input.call.function.name}; the only tool is write_file` };
      }
      let args: z.infer<typeof writeFileArgs>;
      try {
        args = writeFileArgs.parse(JSON.parse(input.call.function.arguments));
      } catch {
        return { ok: false, message: 'write_file needs JSON arguments {"path": string, "content": string}' };
      }
      const target = resolveWorkspacePath(deps.workspaceRoot, input.jobId, args.path);
      if (!target.ok)
        return { ok: false, message: `write_file refused ${JSON.stringify(args.path)}: ${target.reason}` };
      const bytes = Buffer.from(args.content, 'utf8');
      const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
      await fs.mkdir(path.dirname(target.absolute), { recursive: true });
      const temporary = `${target.absolute}.${sha256.slice(0, 12)}.tmp`;
      await fs.writeFile(temporary, bytes);
      await fs.rename(temporary, target.absolute);
      await recordJobFile(deps.pool, input.jobId, { path: target.normalized, sha256, sizeBytes: bytes.length });
      return {
        ok: true,
        path: target.normalized,
        sha256,
        sizeBytes: bytes.length,
        message: `wrote ${target.normalized} (${bytes.length} bytes)`,
      };
    },
  };
}

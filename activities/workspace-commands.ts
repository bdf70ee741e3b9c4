import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { ToolCall } from '../routing/chat-types';
import { checkCommand } from '../products/command-allowlist';
import { claimCommandRun, findCommandRun, finishCommandRun, type CommandRun } from '../db/command-runs';
import { buildToolPaths } from '../products/build-runner';
import { runInSandbox, type SandboxResult } from '../products/sandbox';

/**
 * `run_command` (docs/toolbelt.md): one command a level's model runs in the job's workspace, in the build sandbox
 * (products/sandbox.ts: a clean environment, no network where the machine allows it, a time limit, an output cap, the
 * whole process group killed). Only a command the scenario's allowlist matches runs (products/command-allowlist.ts).
 *
 * At most once: the run is claimed in `command_runs` before the command starts and its end recorded after, under a
 * key of the level and the call's place in it. A retried activity answers from the row: the recorded result, or, when the
 * attempt that started it died before recording the end, a note that it is not run again.
 */

export interface CommandLimits {
  timeoutMs: number;
  outputCapBytes: number;
  /** How much of the end of the output the model sees. */
  tailBytes: number;
}

export const DEFAULT_COMMAND_LIMITS: CommandLimits = {
  timeoutMs: 120_000,
  outputCapBytes: 1_000_000,
  tailBytes: 8_000,
};

/** While a command runs the activity heartbeats this often, so a dead worker is noticed (the level's heartbeat timeout). */
const HEARTBEAT_EVERY_MS = 5_000;

const commandArgs = z.object({ command: z.string() });

export interface RunCommandInput {
  jobId: string;
  /** The level's workflow id. */
  levelId: string;
  /** The run's key: the level and the call's place in it (`<level id>#<round>.<n>`), the same on every retry. */
  runKey: string;
  call: ToolCall;
  /** The level's `commands:` patterns from its scenario. */
  allowed: readonly string[];
  /**
   * A command outside the allowlist that an approval let through (docs/toolbelt.md): the script the refused call
   * reported as `unlisted`. It runs only when the call's command is still exactly this script.
   */
  approvedScript?: string;
}

export interface RunCommandOutcome {
  /** What the model reads as the tool result. */
  content: string;
  /** Whether the command ran (now or in an earlier attempt); false for a refusal. */
  ran: boolean;
  exitCode?: number | null;
  /** A refused command that is one plain command no pattern matched: what would run if an approval allowed it. */
  unlisted?: { script: string };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The model's view of a finished run: the command, how it ended, and the end of its output. */
export function describeRun(
  command: string,
  end: Pick<SandboxResult, 'exitCode' | 'killed' | 'outputTail' | 'outputBytes' | 'durationMs' | 'network'>,
  limits: CommandLimits,
): string {
  const network = end.network === 'netns' ? 'no network' : 'host network: isolation is unavailable here';
  const how =
    end.killed === 'timeout'
      ? `killed after ${seconds(limits.timeoutMs)}: over the time limit`
      : end.killed === 'output_cap'
        ? `killed: over ${limits.outputCapBytes} bytes of output`
        : end.killed === 'aborted'
          ? 'killed: the level was cancelled'
          : `exit code ${end.exitCode}`;
  const cut =
    end.outputBytes > end.outputTail.length ? `, last ${end.outputTail.length} of ${end.outputBytes} bytes` : '';
  const output = end.outputBytes === 0 ? '(no output)' : end.outputTail;
  return `$ ${command}\n${how} (${seconds(end.durationMs)}, ${network}${cut})\n${output}`;
}

function fromRecord(run: CommandRun, limits: CommandLimits): RunCommandOutcome {
  if (!run.finishedAt) {
    return {
      ran: true,
      exitCode: null,
      content:
        `$ ${run.command}\nnot run again: an earlier attempt of this call started it at ${run.startedAt.toISOString()} ` +
        `and its worker stopped before it finished, so how it ended is unknown. Check its effects (read_file, ` +
        `list_files) and call run_command again if running it twice is safe.`,
    };
  }
  return {
    ran: true,
    exitCode: run.exitCode,
    content: describeRun(
      run.command,
      {
        exitCode: run.exitCode,
        killed: run.killed,
        outputTail: run.outputTail ?? '',
        outputBytes: run.outputBytes ?? 0,
        durationMs: run.durationMs ?? 0,
        network: run.network === 'netns' ? 'netns' : 'none',
      },
      limits,
    ),
  };
}

export function workspaceCommandActivities(deps: { pool: Pool; workspaceRoot: string; commandLimits?: CommandLimits }) {
  const limits = deps.commandLimits ?? DEFAULT_COMMAND_LIMITS;

  return {
    async runWorkspaceCommand(input: RunCommandInput): Promise<RunCommandOutcome> {
      let parsedArgs: unknown;
      try {
        parsedArgs = JSON.parse(input.call.function.arguments || '{}');
      } catch {
        parsedArgs = undefined;
      }
      const args = commandArgs.safeParse(parsedArgs);
      if (!args.success) return { ran: false, content: 'run_command needs JSON arguments {"command": string}' };
      const check = checkCommand(args.data.command, input.allowed);
      const approved = !check.ok && check.unlisted !== undefined && check.unlisted.script === input.approvedScript;
      if (!check.ok && !approved) {
        return {
          ran: false,
          content: `run_command refused ${JSON.stringify(args.data.command)}: ${check.reason}`,
          ...(check.unlisted ? { unlisted: check.unlisted } : {}),
        };
      }
      const script = check.ok ? check.script : check.unlisted!.script;

      const { runKey } = input;
      const claimed = await claimCommandRun(deps.pool, {
        runKey,
        jobId: input.jobId,
        levelId: input.levelId,
        command: script,
      });
      if (!claimed) {
        const recorded = await findCommandRun(deps.pool, runKey);
        if (recorded) return fromRecord(recorded, limits);
      }

      const cwd = path.join(deps.workspaceRoot, input.jobId);
      // A job whose executor has written nothing yet has no directory; the command still runs in its own one.
      await mkdir(cwd, { recursive: true });
      const context = activityContext();
      const beat = context ? setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS) : undefined;
      let result: SandboxResult;
      try {
        result = await runInSandbox({
          command: script,
          cwd,
          timeoutMs: limits.timeoutMs,
          outputCapBytes: limits.outputCapBytes,
          tailBytes: limits.tailBytes,
          toolPaths: buildToolPaths(),
          signal: context?.cancellationSignal,
        });
      } finally {
        clearInterval(beat);
      }
      await finishCommandRun(deps.pool, runKey, result);
      return { ran: true, exitCode: result.exitCode, content: describeRun(script, result, limits) };
    },
  };
}

/** The activity's context when called by a worker; undefined when a test calls the function directly. */
function activityContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

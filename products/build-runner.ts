/**
 * Build verification: a template's build command, then its test command, in the sandbox, against a job's workspace.
 * The result is what `build_verify_passed` / `build_verify_failed` carry and what a failed build sends back to the
 * executor.
 */
import path from 'node:path';
import { projectRoot } from '../config/paths';
import { runInSandbox, type SandboxResult } from './sandbox';
import type { Template } from './template-catalog';

export interface BuildLimits {
  /** Per command. */
  timeoutMs: number;
  outputCapBytes: number;
  tailBytes: number;
}

export const DEFAULT_BUILD_LIMITS: BuildLimits = { timeoutMs: 120_000, outputCapBytes: 1_000_000, tailBytes: 4_000 };

export interface BuildOutcome {
  ok: boolean;
  /** The command that failed, or `test` when both passed. */
  step: 'build' | 'test';
  command: string;
  exitCode: number | null;
  /** A build is never aborted (it passes the sandbox no signal). */
  killed: Exclude<SandboxResult['killed'], 'aborted'>;
  /** The end of the combined output of the commands that ran, each under a `$ <command>` line. */
  outputTail: string;
  durationMs: number;
  network: SandboxResult['network'];
}

/**
 * The tools a template may call besides node: Keel's own TypeScript compiler, so a TypeScript template builds
 * without an install step (and so without network).
 */
export function buildToolPaths(): string[] {
  return [path.join(projectRoot(), 'node_modules', '.bin')];
}

/** Runs `build`, then (if it passed) `test`. Never throws for a failing command; that is the outcome. */
export async function verifyBuild(
  workspace: string,
  template: Pick<Template, 'build' | 'test'>,
  limits: BuildLimits = DEFAULT_BUILD_LIMITS,
): Promise<BuildOutcome> {
  const transcript: string[] = [];
  let durationMs = 0;
  let last: { step: 'build' | 'test'; command: string; result: SandboxResult } | undefined;
  for (const step of ['build', 'test'] as const) {
    const command = template[step];
    const result = await runInSandbox({
      command,
      cwd: workspace,
      timeoutMs: limits.timeoutMs,
      outputCapBytes: limits.outputCapBytes,
      tailBytes: limits.tailBytes,
      toolPaths: buildToolPaths(),
    });
    durationMs += result.durationMs;
    const note = result.killed === 'timeout' ? `\n[killed: over ${limits.timeoutMs} ms]` : '';
    const capped = result.killed === 'output_cap' ? `\n[killed: over ${limits.outputCapBytes} bytes of output]` : '';
    transcript.push(`$ ${command}\n${result.outputTail}${note}${capped}`);
    last = { step, command, result };
    if (result.exitCode !== 0) break;
  }
  const joined = transcript.join('\n');
  return {
    ok: last!.result.exitCode === 0,
    step: last!.step,
    command: last!.command,
    exitCode: last!.result.exitCode,
    killed: last!.result.killed === 'aborted' ? null : last!.result.killed,
    outputTail: joined.slice(Math.max(0, joined.length - limits.tailBytes)),
    durationMs,
    network: last!.result.network,
  };
}

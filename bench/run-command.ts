// run_command's sandbox (docs/toolbelt.md) against spawning the same command directly, in one run (nothing asserted):
//   direct   child_process.spawn of the command's words, no shell, in the sandbox's kind of environment (PATH and
//            HOME only: the parent's may carry settings that slow every node start, e.g. NODE_EXTRA_CA_CERTS, which
//            the sandbox drops; measured with it, a direct node start here took ~80 ms longer than the sandbox's)
//   sandbox  products/sandbox.ts as run_command uses it: `sh -c` under coreutils `timeout` in its own process group, a
//            clean environment, the output capped and tailed, and a fresh network namespace where the machine allows
//            one (`unshare --user --net`; the row says whether it did)
//   sandbox, host network  the same without the network namespace, to show what cutting the network costs
// Each variant runs the command `--n` times after `--warmup` runs, interleaved round by round so a busy minute hits
// all of them alike. What is left out: the activity's claim row in `command_runs` (one INSERT, see docs/toolbelt.md)
// and Temporal's activity dispatch, which every tool call pays.
// Run: npm run build && node dist/bench/run-command.js [--n=30] [--warmup=3] [--json]
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { networkIsolationAvailable, runInSandbox } from '../products/sandbox';
import { param, percentile, printJson } from './measure';
import { runBench } from './run-bench';

const N = param('n', 30);
const WARMUP = param('warmup', 3, 0);
/** What a model's first command usually is: a node process that starts and ends (the tests' runner, a script). */
const WORDS = [process.execPath, '-e', 'process.stdout.write("ok\\n")'];
const SCRIPT = WORDS.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');

function direct(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8' };
    const child = spawn(WORDS[0]!, WORDS.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`direct: exit ${code}`))));
  });
}

async function sandboxed(cwd: string, network: 'auto' | 'host'): Promise<void> {
  const result = await runInSandbox({ command: SCRIPT, cwd, timeoutMs: 30_000, outputCapBytes: 1_000_000, network });
  if (result.exitCode !== 0) throw new Error(`sandbox (${network}): exit ${result.exitCode}: ${result.outputTail}`);
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

runBench(async () => {
  const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-run-command-'));
  try {
    const variants: Array<[string, () => Promise<void>]> = [
      ['direct spawn', () => direct(cwd)],
      [`sandbox (network: ${networkIsolationAvailable() ? 'netns' : 'none available'})`, () => sandboxed(cwd, 'auto')],
      ['sandbox, host network', () => sandboxed(cwd, 'host')],
    ];
    const samples = new Map<string, number[]>(variants.map(([name]) => [name, []]));
    for (let round = 0; round < WARMUP + N; round += 1) {
      for (const [name, run] of variants) {
        const ms = await timed(run);
        if (round >= WARMUP) samples.get(name)!.push(ms);
      }
    }
    const rows = variants.map(([name]) => {
      const sorted = [...samples.get(name)!].sort((a, b) => a - b);
      return { name, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1]! };
    });
    const base = rows[0]!.p50;
    console.log(`run_command overhead: ${N} runs each of \`node -e …\` (load ${os.loadavg()[0]!.toFixed(2)})`);
    console.log(
      'variant'.padEnd(34) + 'p50 ms'.padStart(9) + 'p95 ms'.padStart(9) + 'max ms'.padStart(9) + '  vs direct',
    );
    for (const row of rows) {
      const extra = row.p50 - base;
      console.log(
        row.name.padEnd(34) +
          row.p50.toFixed(1).padStart(9) +
          row.p95.toFixed(1).padStart(9) +
          row.max.toFixed(1).padStart(9) +
          `  ${row === rows[0] ? '' : `${extra >= 0 ? '+' : ''}${extra.toFixed(1)} ms (${(row.p50 / base).toFixed(2)}×)`}`,
      );
    }
    printJson('run-command', { n: N, load: os.loadavg()[0], rows });
  } finally {
    await fs.rm(cwd, { recursive: true, force: true });
  }
});

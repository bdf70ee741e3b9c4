// `keel fork` and `keel compare` (docs/fork-and-compare.md).
import { parseArgs } from 'node:util';
import { compareJobs, forkJob, UsageError, type ApiTarget, type Comparison, type ForkBody } from './api';
import { followJob } from './follow';
import type { RenderStyle } from './render';

const TIERS = ['free', 'cheap', 'frontier'] as const;

/**
 * `keel fork <job> --from <level_run|sequence> [--prompt <text>] [--tier <tier>] [--budget <usd>] [--watch] [--json]`:
 * a new job that carries the source's level runs up to the fork point over and runs on from there. `--from` is a level
 * run id (`<job>/L3.verifier/1`, or just `L3.verifier/1` for one of this job's) or an event sequence number;
 * `--budget` the fork's own ceiling in USD (its `budget_usd`).
 */
export async function runFork(target: ApiTarget, args: string[], style: RenderStyle): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      prompt: { type: 'string' },
      tier: { type: 'string' },
      budget: { type: 'string' },
      watch: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const [jobId, ...extra] = positionals;
  if (!jobId || extra.length > 0) throw new UsageError('keel fork needs one job id');
  if (values.from === undefined) throw new UsageError('keel fork needs --from <level_run|sequence>');
  const tier = values.tier;
  if (tier !== undefined && !(TIERS as readonly string[]).includes(tier)) {
    throw new UsageError(`--tier is one of ${TIERS.join(', ')}`);
  }
  const budget = values.budget === undefined ? undefined : Number(values.budget);
  if (budget !== undefined && !(Number.isFinite(budget) && budget > 0)) {
    throw new UsageError("--budget is the fork's ceiling in USD, a positive number such as 2.5");
  }
  const body: ForkBody = {
    from: forkPoint(jobId, values.from),
    ...(values.prompt !== undefined ? { prompt_patch: values.prompt } : {}),
    ...(tier !== undefined ? { model_tier: tier as (typeof TIERS)[number] } : {}),
    ...(budget !== undefined ? { budget_usd: budget } : {}),
  };
  const forked = await forkJob(target, jobId, body);
  if (values.json && !values.watch) {
    console.log(JSON.stringify(forked, null, 2));
    return 0;
  }
  if (!values.json) {
    const from = forked.from_level_run_id ?? 'the start';
    console.error(
      `forked ${forked.source_job_id} after ${from} → job ${forked.job_id} (${forked.carried_level_ids.length} level runs carried over)`,
    );
    console.error(`compare: keel compare ${forked.source_job_id} ${forked.job_id}`);
  }
  if (!values.watch) {
    if (!values.json) console.log(forked.job_id);
    return 0;
  }
  return followJob({
    target,
    jobId: forked.job_id,
    json: values.json,
    deltas: false,
    style,
    answer: false,
    preface: [],
  });
}

/** A level run id (one of the job's, with or without the job id in front), or a non-negative event sequence. */
export function forkPoint(jobId: string, from: string): ForkBody['from'] {
  if (/^\d+$/.test(from)) return { sequence: Number(from) };
  if (from.startsWith(`${jobId}/`) || /^job-[^/]+\//.test(from)) return { level_run_id: from };
  if (/^[^/]+\/\d+$/.test(from)) return { level_run_id: `${jobId}/${from}` };
  throw new UsageError(`--from is a level run (${jobId}/L3.verifier/1, or L3.verifier/1) or an event sequence number`);
}

/** `keel compare <a> <b> [--json]`: the files and level runs that differ between two jobs. */
export async function runCompare(target: ApiTarget, args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 2) throw new UsageError('keel compare needs two job ids');
  const [a, b] = positionals as [string, string];
  const compared = await compareJobs(target, a, b);
  console.log(values.json ? JSON.stringify(compared, null, 2) : renderComparison(compared));
  return 0;
}

const usd = (n: number | null | undefined) => (n === null || n === undefined ? '—' : `$${n.toFixed(4)}`);
const ms = (n: number | null | undefined) => (n === null || n === undefined ? '—' : `${(n / 1000).toFixed(1)}s`);

/** The comparison as text: how the jobs relate, each differing file (with its diff), then the level runs. */
export function renderComparison(c: Comparison): string {
  const lines = [`a ${c.a.job_id} (${c.a.status})`, `b ${c.b.job_id} (${c.b.status})`, `relation: ${c.relation}`, ''];
  if (c.files.length === 0) lines.push(c.identical_workspaces ? 'files: identical' : 'files: no differences');
  else lines.push(`files: ${c.files.length} differ, ${c.unchanged_files} unchanged`);
  for (const file of c.files) {
    const sizes = `${file.a?.size_bytes ?? '—'} → ${file.b?.size_bytes ?? '—'} bytes`;
    lines.push(`  ${file.change.padEnd(8)} ${file.path} (${file.binary ? 'binary, ' : ''}${sizes})`);
    if (file.diff)
      lines.push(
        ...file.diff
          .trimEnd()
          .split('\n')
          .map((l) => `    ${l}`),
      );
  }
  lines.push('', 'levels:                              cost a → b              duration a → b');
  for (const level of c.levels) {
    const name = `${level.role}/${level.attempt}`.padEnd(36);
    const cost = `${usd(level.a?.cost_usd)} → ${usd(level.b?.cost_usd)}`.padEnd(24);
    const carried = level.b?.carried_over
      ? ' (carried over in b)'
      : level.a?.carried_over
        ? ' (carried over in a)'
        : '';
    lines.push(`  ${name}${cost}${ms(level.a?.duration_ms)} → ${ms(level.b?.duration_ms)}${carried}`);
  }
  lines.push(
    '',
    `total: ${usd(c.a.levels_cost_usd)} → ${usd(c.b.levels_cost_usd)} (${c.cost_diff_usd >= 0 ? '+' : ''}${c.cost_diff_usd.toFixed(4)}); ` +
      `billed ${usd(c.a.billed_cost_usd)} → ${usd(c.b.billed_cost_usd)}`,
  );
  return lines.join('\n');
}

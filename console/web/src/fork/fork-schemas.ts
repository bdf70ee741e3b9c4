import * as z from 'zod/mini';

/** What the fork and compare routes answer (docs/fork-and-compare.md), checked at the boundary; loose like the rest. */

export const ForkAccepted = z.looseObject({
  job_id: z.string(),
  source_job_id: z.string(),
  carried_level_ids: z.array(z.string()),
});

/** On a fork's job: where it came from. */
export const ForkedFrom = z.looseObject({
  job_id: z.string(),
  from_level_run_id: z.nullable(z.string()),
  carried_level_ids: z.array(z.string()),
  prompt_patched: z.optional(z.boolean()),
  model_tier: z.optional(z.nullable(z.string())),
});
export type ForkedFrom = z.infer<typeof ForkedFrom>;

/** On a source job: its forks, oldest first. */
export const ForkOf = z.looseObject({
  job_id: z.string(),
  from_level_run_id: z.nullable(z.string()),
  created_at: z.string(),
});
export type ForkOf = z.infer<typeof ForkOf>;

const Side = z.looseObject({
  job_id: z.string(),
  status: z.string(),
  level_run_id: z.nullable(z.string()),
  levels_cost_usd: z.number(),
  levels_duration_ms: z.number(),
  billed_cost_usd: z.number(),
  carried_level_ids: z.array(z.string()),
});
const FileSide = z.nullable(z.looseObject({ sha256: z.string(), size_bytes: z.number() }));
export const FileChange = z.looseObject({
  path: z.string(),
  change: z.string(),
  a: FileSide,
  b: FileSide,
  size_diff_bytes: z.number(),
  binary: z.optional(z.boolean()),
  diff: z.optional(z.string()),
  diff_omitted: z.optional(z.string()),
});
export type FileChange = z.infer<typeof FileChange>;
const LevelSide = z.nullable(
  z.looseObject({
    level_id: z.string(),
    cost_usd: z.nullable(z.number()),
    duration_ms: z.nullable(z.number()),
    verdict: z.optional(z.nullable(z.string())),
    model: z.optional(z.nullable(z.string())),
    carried_over: z.optional(z.boolean()),
  }),
);
export const LevelChange = z.looseObject({
  role: z.string(),
  attempt: z.number(),
  a: LevelSide,
  b: LevelSide,
  cost_diff_usd: z.nullable(z.number()),
  duration_diff_ms: z.nullable(z.number()),
});
export type LevelChange = z.infer<typeof LevelChange>;
export const Comparison = z.looseObject({
  a: Side,
  b: Side,
  relation: z.string(),
  identical_workspaces: z.boolean(),
  files: z.array(FileChange),
  unchanged_files: z.number(),
  levels: z.array(LevelChange),
  cost_diff_usd: z.number(),
  duration_diff_ms: z.number(),
});
export type Comparison = z.infer<typeof Comparison>;

import { defineQuery } from '@temporalio/workflow';
import type { Rung } from '../routing/catalog/types';

/** Ids every event of a job carries. */
export interface JobIds {
  job_id: string;
  workflow_id: string;
  prompt_id: string;
}

export interface JobInput {
  ids: JobIds;
  /** Already redacted by the API. */
  prompt: string;
  projectSlug?: string;
  modelTier?: string;
  createdBy: string;
}

export interface JobResult {
  status: 'completed';
  summary: string;
  createdFiles: string[];
}

/** One level run of the hierarchy, run as a child workflow `<job_id>/<role>/<attempt>`. */
export interface LevelInput {
  ids: JobIds;
  role: string;
  attempt: number;
  /** The user's request (redacted prompt). */
  request: string;
  /** What earlier levels produced, newest last; folded into this level's prompt. */
  context: Array<{ role: string; output: string }>;
  modelTier?: string;
  /** Named requirement sets (spec table): matched against model features before price. */
  requirements?: string[];
  /** The level's effort constraint. */
  effort?: Rung;
  /** L4 only: the most tool rounds before the level gives up. */
  maxToolRounds?: number;
}

export interface LevelResult {
  role: string;
  ok: boolean;
  output: string;
  verdict?: string;
  createdFiles: string[];
  provider?: string;
  model?: string;
  costUsd: number;
  /** The strongest rung this level's calls asked for, and the reasoning tokens they used. */
  effort?: Rung;
  reasoningTokens: number;
}

export interface JobProgress {
  status: 'running' | 'completed' | 'failed' | 'cancelled';
  currentLevel?: string;
  finishedLevels: string[];
  createdFiles: string[];
}

/** Query: where a running job is, for operators and the API. */
export const jobProgressQuery = defineQuery<JobProgress>('progress');

export interface LevelSpec {
  role: string;
  requirements?: string[];
  effort?: Rung;
}

/** The levels of the first-cut scenario, in run order. The hierarchy issue replaces this with scenario data. */
export const FIRST_CUT_LEVELS: readonly LevelSpec[] = [
  { role: 'L1.team_lead' },
  { role: 'L2.architect' },
  // The executor calls write_file, so only models with tool use can serve it.
  { role: 'L4.executor', requirements: ['code_generation'] },
  { role: 'L3.verifier' },
];

/** Readable child id so an operator finds a level run in the Temporal UI. */
export function levelWorkflowId(jobId: string, role: string, attempt: number): string {
  return `${jobId}/${role}/${attempt}`;
}

import { defineQuery } from '@temporalio/workflow';

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
}

export interface JobProgress {
  status: 'running' | 'completed' | 'failed' | 'cancelled';
  currentLevel?: string;
  finishedLevels: string[];
  createdFiles: string[];
}

/** Query: where a running job is, for operators and the API. */
export const jobProgressQuery = defineQuery<JobProgress>('progress');

/** The levels of the first-cut scenario, in run order. The hierarchy issue replaces this with scenario data. */
export const FIRST_CUT_LEVELS = ['L1.team_lead', 'L2.architect', 'L4.executor', 'L3.verifier'] as const;

/** Readable child id so an operator finds a level run in the Temporal UI. */
export function levelWorkflowId(jobId: string, role: string, attempt: number): string {
  return `${jobId}/${role}/${attempt}`;
}

import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { FollowUpPolicy } from '../pure/follow-up-policy';
import type { Intent } from './intents';
import type { Scenario, ScenarioLevel } from '../scenarios/types';
import type { Rung } from '../pure/rungs';
import type { BudgetQuestionTerms } from '../pure/budget-decision';

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
  /** The scenario to run first; `build` by default. */
  scenario?: string;
  /** The workflow's edited agent graph, as a scenario; run instead of the `scenario` file when present. */
  graph?: Scenario;
  /**
   * Per-job cost ceiling in USD. Since BUDGET_PAUSE_PATCH a model call that would pass it pauses the job for the
   * submitter's decision (docs/budgets.md); before it, the job emitted budget_exceeded and stopped.
   */
  budgetUsd?: number;
  /** While a model call runs longer than this, its level emits a `heartbeat` event this often (ms). */
  heartbeatEveryMs?: number;
  /** Product-build pins from the job's metadata (`template`, `design`, `deploy`); they win over the scenario's. */
  product?: { template?: string; design?: string; deploy?: boolean };
  /** How long to wait for the job's row before ending as never recorded (pure/job-record.ts); tests shorten it. */
  recordWaitMs?: number;
  /**
   * A fork of another job (POST /v1/jobs/:id/fork, docs/fork-and-compare.md): the workspace to restore before the first
   * level, and the source's level runs to carry over instead of running them. Absent for every other job, so jobs
   * recorded before forks replay unchanged.
   */
  fork?: ForkInput;
  /**
   * A job started by a follow-up policy (docs/follow-up-policies.md): the policy and the prompt, and for `enqueue` and
   * `interrupt` the job it waits for (and whose workspace an interrupt carries). Absent for every other job.
   */
  followUp?: FollowUpInput;
  /**
   * Fair scheduling (docs/scheduling.md): the job claims a slot of its org before it runs anything and waits `queued`
   * until it has one. Present only when the API that started it has JOB_SCHEDULING on, so every other job's commands
   * are unchanged.
   */
  scheduling?: JobScheduling;
}

/** What a job needs to claim a slot: its org and priority, and the deployment's limits when it was submitted. */
export interface JobScheduling {
  orgId: string;
  /** `metadata.priority`: higher runs first within its org's queue. */
  priority: number;
  /** Per org unless the org has its own limit (PUT /v1/admin/job-slots/orgs/:org); null: unlimited. */
  orgSlots: number | null;
  /** Over every org; null: unlimited. */
  totalSlots: number | null;
  /** Off: plain FIFO over every org. */
  fair: boolean;
  /** A queued job claims again this often, so a lost `slotGranted` signal cannot strand it (ms). */
  reclaimMs: number;
}

/** How a follow-up policy started a job. */
export interface FollowUpInput {
  policy: FollowUpPolicy;
  promptId: string;
  /** The job this one runs after: it waits, `queued`, until that job has ended. */
  after?: { jobId: string; carryWorkspace: boolean };
}

/**
 * Signal to a job that a follow-up policy decided about it: `interrupt` asks it to stop at its next level boundary
 * (`next_job_id` carries on with its workspace), `reject` only records that a prompt was refused while it ran.
 */
export interface FollowUpDecision {
  policy: 'interrupt' | 'reject';
  prompt_id?: string;
  next_job_id?: string;
}

/** What a fork starts from: its source, its fork point, and the level runs it carries over. */
export interface ForkInput {
  sourceJobId: string;
  /** The source's level run the fork starts after; null for a fork from the start (a replay with an edited payload). */
  fromLevelRunId: string | null;
  /** The manifest the fork point left (restored into the new job's workspace); null when there is nothing to restore. */
  manifestSha256: string | null;
  /** The fork point as the caller named it by event sequence, when it did. */
  sequence?: number;
  /** The source's level runs up to the fork point, in the order they ran. */
  carryOver: CarriedLevel[];
  /** The fork runs a changed prompt (`prompt_patch`). */
  promptPatched?: boolean;
}

/** A source level run whose result a fork takes instead of running the level again. */
export interface CarriedLevel {
  /** The source's level run (`<source job>/<role>/<attempt>`). */
  sourceLevelRunId: string;
  role: string;
  attempt: number;
  /** The source level run's durable result, as its child workflow returned it. */
  result: LevelResult;
}

export interface JobResult {
  /** `not_recorded`: the submission's rows never committed, so the job ended without running (pure/job-record.ts). */
  status: 'completed' | 'not_recorded';
  summary: string;
  createdFiles: string[];
}

/** One level run of the hierarchy, run as a child workflow `<job_id>/<role>/<attempt>`. */
export interface LevelInput {
  ids: JobIds;
  role: string;
  attempt: number;
  /** The scenario's definition of this level: brief, tools, routing constraints. */
  level: ScenarioLevel;
  /** L3 and reviews: which verification of this job this is (1-based), written into the prompt as `Attempt: <k>`. */
  verifyAttempt?: number;
  /**
   * A review lead reviewing the executor's result (pure/review-leads.ts): the level is a verdict level like a
   * verifier, and a blocking finding fails it.
   */
  review?: boolean;
  /** What the budget still allows this level to spend (levels of jobs started before BUDGET_PAUSE_PATCH). */
  budgetRemainingUsd?: number;
  /**
   * Set by jobs since BUDGET_PAUSE_PATCH: every model call is reserved before and settled after
   * (activities/budget.ts), and a call that does not fit the job's ceiling (`ceilingUsd`, null: none) or a monthly
   * budget pauses the level for the submitter's decision instead of failing it.
   */
  budget?: { ceilingUsd: number | null };
  /** `heartbeat` event interval during a long model call (ms); 15 s by default. */
  heartbeatEveryMs?: number;
  /** A non-LLM intent the team lead answers in code (the level is then composed in code). */
  intent?: Exclude<Intent, { kind: 'llm' }>;
  /** The user's request (redacted prompt). */
  request: string;
  /** What earlier levels produced, newest last; folded into this level's prompt. */
  context: Array<{ role: string; output: string }>;
  modelTier?: string;
  /** L4 only: the most tool rounds before the level gives up. */
  maxToolRounds?: number;
  /**
   * The job's `agent_handoff` to this level, which the level appends (as `role`, the team lead) before anything else;
   * absent for the job's first level and in jobs that appended it themselves (before patch `compact-job-history`).
   */
  handoff?: { role: string; from: string; to: string; attempt: number };
}

export interface LevelResult {
  role: string;
  ok: boolean;
  output: string;
  verdict?: string;
  /** The verifier's deltas (what to change) when it failed the result. */
  deltas: string[];
  createdFiles: string[];
  provider?: string;
  model?: string;
  costUsd: number;
  /** The strongest rung this level's calls asked for, and the reasoning tokens they used. */
  effort?: Rung;
  reasoningTokens: number;
  /** Prompt (input) and completion (output) tokens summed over the level's LLM calls; absent for a level without one. */
  promptTokens?: number;
  completionTokens?: number;
  /**
   * The job's workspace as this level run left it: the manifest (by digest) it was snapshotted to, with its totals
   * (docs/workspace-snapshots.md). Absent for levels recorded before snapshots, and for a level that failed.
   */
  snapshot?: WorkspaceSnapshotRef;
  /** A level run with `budget`: the job's ceiling and model tier as the submitter's budget decisions left them. */
  budget?: { ceilingUsd: number | null; modelTier?: string; reservedUsd: number };
}

/** A level run's workspace snapshot as its result records it: the manifest's digest, file count and bytes. */
export interface WorkspaceSnapshotRef {
  manifestSha256: string;
  files: number;
  bytes: number;
}

export interface JobProgress {
  status: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
  scenario?: string;
  currentLevel?: string;
  finishedLevels: string[];
  createdFiles: string[];
}

/** Query: where a running job is, for operators and the API. */
export const jobProgressQuery = defineQuery<JobProgress>('progress');

/** Readable child id so an operator finds a level run in the Temporal UI. */
export function levelWorkflowId(jobId: string, role: string, attempt: number): string {
  return `${jobId}/${role}/${attempt}`;
}

/** A person's input a level is waiting for: an ask_user question or an approval. */
export interface Interrupt {
  kind: 'ask_user' | 'approval' | 'human_task';
  call_id: string;
  role: string;
  /** The question, or the action awaiting approval. */
  text: string;
  approval_id?: string;
  /** The child workflow that waits, and that receives the answer. */
  workflow_id: string;
  /** A budget decision (an ask_user question): the answers it takes, so the resume Update refuses any other. */
  budget?: BudgetQuestionTerms;
}

/** Child → job: a level started waiting for a person. */
export const followUpSignal = defineSignal<[FollowUpDecision]>('followUp');
/** A job stopped at a level boundary by an `interrupt` follow-up (status `cancelled`, error code `interrupted`). */
export const JOB_INTERRUPTED = 'JobInterrupted';
export const interruptRaisedSignal = defineSignal<[Interrupt]>('interruptRaised');
/** Child → job: the level got its answer and runs again. */
export const interruptClearedSignal = defineSignal<[{ call_id: string }]>('interruptCleared');
/** Job → child: the answer to an ask_user call, relayed from the resume Update. */
/** Signal: the job's slot was granted (docs/scheduling.md); it claims again to learn it, so a duplicate is harmless. */
export const slotGrantedSignal = defineSignal('slotGranted');
export const answerSignal = defineSignal<[{ call_id: string; answer: string }]>('answer');

/*
 * ApplicationFailure types of the job and level families, in one place so a thrower and a reader cannot drift apart
 * (types, never class names: class names do not survive bundling).
 */

/** The job: verification still failing after retries and one escalation (error code `verification_failed`). */
export const VERIFICATION_FAILED = 'VerificationFailed';
/**
 * The job or one of its levels would spend past the job's budget (error code `budget_exceeded`). A level's failure
 * carries what it spent as `details[0]`, which the job adds to its total.
 */
export const BUDGET_EXCEEDED = 'BudgetExceeded';
/**
 * The submitter answered a budget decision with `stop` (error code `budget_exceeded`, status `cancelled`). The level's
 * failure carries what it spent as `details[0]`, like BUDGET_EXCEEDED.
 */
export const BUDGET_STOPPED = 'BudgetStopped';
/** The resume Update's validator: the answer is none of a budget decision's answers (400 invalid_budget_decision). */
export const INVALID_BUDGET_DECISION = 'InvalidBudgetDecision';
/** The resume Update's validator: the job waits on no `ask_user` question (the API answers 409 job_not_paused). */
export const JOB_NOT_PAUSED = 'JobNotPaused';
/** The resume Update's validator: the job waits on other questions (409 unknown_call_id). */
export const UNKNOWN_CALL_ID = 'UnknownCallId';
/** The appendPrompt Update's validator: the job has run its last level; the API starts a new job instead. */
export const JOB_CLOSING = 'JobClosing';
/** Failure types the activities throw (JOB_NOT_RECORDED, INVALID_EVENT): pure/contracts.ts, below both. */
export { INVALID_EVENT, JOB_NOT_RECORDED } from '../pure/contracts';
/** A level: the model kept calling tools past the level's round limit. */
export const TOOL_ROUNDS_EXHAUSTED = 'ToolRoundsExhausted';

/** The role that speaks for a whole job (its events and run graph): the team lead, in the hierarchy and elsewhere. */
export const JOB_ROLE = 'L1.team_lead';

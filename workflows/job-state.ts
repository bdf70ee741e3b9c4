import type { JobInput, JobProgress, LevelResult } from './definitions';
import { PendingInput, type AppendedPrompt } from './human-input';
import { strongestRung } from '../pure/rungs';

/** What a level is told happened before it: a role and what it produced, or a follow-up prompt. */
export interface EarlierOutput {
  role: string;
  output: string;
}

/**
 * A job's state and its accounting: what the job workflow's handlers and steps read and change, apart from the wiring
 * (the house style's safe-message-handlers shape). Plain workflow state: no commands, no I/O.
 */
export class JobState {
  /** What the progress query answers. */
  readonly progress: JobProgress = { status: 'running', finishedLevels: [], createdFiles: [] };
  /** The waits for a person the levels raised. */
  readonly pending: PendingInput;
  /** Level runs per role, retried and escalated ones included. */
  private readonly attempts = new Map<string, number>();
  /** The results the job keeps (a retried executor's earlier attempts are dropped), in order. */
  readonly results: LevelResult[] = [];
  /** Cost of every level run, retried and escalated ones included. */
  spentUsd = 0;
  /** Tokens of every level run, like spentUsd. */
  readonly tokens = { reasoning: 0, prompt: 0, completion: 0 };
  /**
   * A fork's carried level runs (docs/fork-and-compare.md): their cost and tokens are in the totals above (what the
   * result cost to produce) but were spent by the source, so the job's own usage row, the ledger budgets read, leaves
   * them out.
   */
  readonly carried = { usd: 0, reasoning: 0, prompt: 0, completion: 0 };
  /** Executor attempts the verifier (or a build) judged. */
  verifications = 0;
  /** The role of the level that ran last: the next level's handoff comes from it. */
  previousRole: string | undefined;
  /** Follow-up prompts, oldest first; the first `seenFollowUps` of them have been in some level's context. */
  readonly followUps: AppendedPrompt[] = [];
  seenFollowUps = 0;
  /** Set when no level will run any more: from then on a follow-up is refused (the API starts a new job). */
  closing = false;
  /** An `interrupt` follow-up asked the job to stop at its next level boundary (FOLLOW_UP_POLICIES_PATCH). */
  stopRequested?: { prompt_id?: string; next_job_id?: string };
  /** Set when a person declined a product build at a gate: the job ends with `final` saying so, building nothing. */
  refusal: string | undefined;
  /** What a product build's release left: its URL and a note for the summary. */
  release: { url?: string; note: string } | undefined;

  /** The job's ceiling and model tier: the input's, then as the submitter's budget decisions changed them. */
  budgetUsd: number | undefined;
  modelTier: string | undefined;

  constructor(jobId: string, input: Pick<JobInput, 'budgetUsd' | 'modelTier'>) {
    this.pending = new PendingInput(jobId);
    this.budgetUsd = input.budgetUsd;
    this.modelTier = input.modelTier;
  }

  /** Counts a new run of `role` and returns its attempt number (1 for the first). */
  nextAttempt(role: string): number {
    const attempt = (this.attempts.get(role) ?? 0) + 1;
    this.attempts.set(role, attempt);
    return attempt;
  }

  /** The attempt number of the latest run of `role`. */
  attemptOf(role: string): number {
    return this.attempts.get(role)!;
  }

  levelRuns(): number {
    return [...this.attempts.values()].reduce((sum, n) => sum + n, 0);
  }

  /** What a level is told happened before it: earlier outputs, then the user's follow-ups so far, then `extra`. */
  contextOf(extra: EarlierOutput[] = []): EarlierOutput[] {
    return [
      ...this.results.map((r) => ({ role: r.role, output: r.output })),
      ...this.followUps.map((f) => ({ role: `follow-up prompt ${f.prompt_id} from the user`, output: f.prompt })),
      ...extra,
    ];
  }

  /** Adds a finished level run's cost, tokens and files to the job's. */
  account(role: string, result: LevelResult): void {
    this.spentUsd += result.costUsd;
    this.tokens.reasoning += result.reasoningTokens;
    this.tokens.prompt += result.promptTokens ?? 0;
    this.tokens.completion += result.completionTokens ?? 0;
    this.progress.finishedLevels.push(role);
    this.addFiles(result.createdFiles);
  }

  /** Notes that `result` was carried over from the fork's source: counted in the totals, not in the job's own usage. */
  carriedOver(result: LevelResult): void {
    this.carried.usd += result.costUsd;
    this.carried.reasoning += result.reasoningTokens;
    this.carried.prompt += result.promptTokens ?? 0;
    this.carried.completion += result.completionTokens ?? 0;
  }

  addFiles(files: readonly string[]): void {
    for (const file of files) if (!this.progress.createdFiles.includes(file)) this.progress.createdFiles.push(file);
  }

  /** A follow-up arrived that no level has had in its context yet. */
  hasUnseenFollowUps(): boolean {
    return this.followUps.length > this.seenFollowUps;
  }

  /** The job's usage as `final` reports it: every level run's, carried ones included. */
  usage() {
    return {
      effort: strongestRung(this.results.map((r) => r.effort)),
      reasoningTokens: this.tokens.reasoning,
      promptTokens: this.tokens.prompt,
      completionTokens: this.tokens.completion,
      costUsd: this.spentUsd,
    };
  }

  /** The job's own usage, as its status row (and so the ledger) records it: `usage()` less what was carried over. */
  ownUsage() {
    const all = this.usage();
    return {
      ...all,
      reasoningTokens: all.reasoningTokens - this.carried.reasoning,
      promptTokens: all.promptTokens - this.carried.prompt,
      completionTokens: all.completionTokens - this.carried.completion,
      // Never below zero through float rounding: the row's cost is a ledger amount.
      costUsd: Math.max(0, all.costUsd - this.carried.usd),
    };
  }
}

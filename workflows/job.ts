import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { failureChain } from '../pure/failure-chain';
import { withoutServerPaths } from '../pure/server-paths';
import { jobSummary } from '../pure/job-summary';
import { NOT_RECORDED_STATUS } from '../pure/job-record';
import { KEEL_KIND, KEEL_STATUS } from '../pure/search-attributes';
import {
  answerSignal,
  BUDGET_EXCEEDED,
  BUDGET_STOPPED,
  followUpSignal,
  interruptClearedSignal,
  interruptRaisedSignal,
  JOB_CLOSING,
  JOB_INTERRUPTED,
  JOB_ROLE,
  jobProgressQuery,
  levelWorkflowId,
  VERIFICATION_FAILED,
  type CarriedLevel,
  type JobInput,
  type JobResult,
  type LevelInput,
  type LevelResult,
} from './definitions';
import { ACTIVITY_RETRY } from './activity-retry';
import { createEmitter, type Emitter } from './emit';
import { classifyIntent, type Intent } from './intents';
import { appendPromptUpdate, interruptsQuery, resumeUpdate, type ResumeInput } from './human-input';
import { markRunningOnceRecorded } from './job-recorded';
import { decideGate } from './gate';
import { JobState, type EarlierOutput } from './job-state';
import { runLevel } from './level';
import { CarryOver, carryLevel, startFork } from './fork';
import { awaitPredecessor, startFollowUp } from './follow-up';
import { JobSlot } from './job-slot';
import { PRODUCT_SCENARIO, productBuildFor, wantsProductBuild } from './product-job';
import { isReviewLead, reviewBrief } from '../pure/review-leads';
import type { Scenario, ScenarioLevel } from '../scenarios/types';
import {
  BUDGET_PAUSE_PATCH,
  COMPACT_HISTORY_PATCH,
  FAIR_SCHEDULING_PATCH,
  FOLLOW_UP_POLICIES_PATCH,
  earlierPatch,
  LEAN_HISTORY_PATCH,
  LOCAL_BOOKKEEPING_PATCH,
  REASKED_CALL_REOPENS_PATCH,
  RELAY_INTERRUPTS_PATCH,
  REVIEW_LEADS_PATCH,
} from './patches';

const bookkeepingActivities = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: ACTIVITY_RETRY,
});
// The same calls as local activities (docs/job-history.md): short, idempotent writes and a file read, each done before
// the workflow goes on, without a task on the task queue and three history events apiece.
const bookkeepingLocalActivities = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: ACTIVITY_RETRY,
});

/** Same-level conflicts: the verifier may send work back this many times before the issuing L2 level is asked again. */
export const MAX_SAME_LEVEL_RETRIES = 3;
/** The first scenario when the job names none. */
export const DEFAULT_SCENARIO = 'build';

/** One job's run: what its steps below share. */
interface JobRun {
  input: JobInput;
  jobId: string;
  /** `later` holds an event nothing waits for until the next one is stored (lean runs: LEAN_HISTORY_PATCH). */
  emit: Emitter;
  /** LEAN_HISTORY_PATCH: the run asks no earlier patch (all taken) and stores its events in batches. */
  lean: boolean;
  /** The status writes, scenario loads and run-graph archive: local activities since LOCAL_BOOKKEEPING_PATCH. */
  book: typeof bookkeepingActivities;
  /** COMPACT_HISTORY_PATCH: each level appends the team lead's handoff itself. */
  compact: boolean;
  /** BUDGET_PAUSE_PATCH: levels reserve their calls and pause on a budget; the job does not fail on its total. */
  pausing: boolean;
  product: ReturnType<typeof productBuildFor>;
  state: JobState;
  /** A fork's level runs carried over from its source, taken in order instead of running them. */
  carry: CarryOver;
}

/**
 * A job: runs its scenario's levels as child workflows, sends failed verifications back to the executor
 * (then to the L2 level that issued the task), follows `chain:` to a follow-up scenario, pauses for people
 * (ask_user via the `resume` Update, approvals via signals to the waiting level), takes follow-up prompts of its
 * workflow (the `appendPrompt` Update) into the context of every later level, and ends with exactly one terminal
 * event, `final` or `error`, after which it archives its run graph. The workflow id is the job id.
 */
export async function runJob(input: JobInput): Promise<JobResult> {
  const { job_id: jobId } = input.ids;
  // Decided before the first command (the tracing interceptor asked it first), so a job recorded before it asks the
  // earlier patches below as it did.
  const lean = patched(LEAN_HISTORY_PATCH);
  const emit = createEmitter(input.ids, jobId, lean);
  // Decided before the first command, so a job recorded before the patch replays its activities as they ran.
  const book = earlierPatch(lean, LOCAL_BOOKKEEPING_PATCH) ? bookkeepingLocalActivities : bookkeepingActivities;
  const compact = earlierPatch(lean, COMPACT_HISTORY_PATCH);
  const pausing = earlierPatch(lean, BUDGET_PAUSE_PATCH);
  const state = new JobState(jobId, input);
  const carry = new CarryOver(input.fork?.carryOver ?? []);
  // Only a job a follow-up policy started has `followUp` in its input, so no job recorded before policies asks here.
  const followUp = input.followUp && earlierPatch(lean, FOLLOW_UP_POLICIES_PATCH) ? input.followUp : undefined;
  const run: JobRun = {
    input,
    jobId,
    emit,
    lean,
    book,
    compact,
    pausing,
    product: productBuildFor(input, emit),
    state,
    carry,
  };
  wireHandlers(run);
  wireFollowUps(run);
  // Only a job started with fair scheduling on has `scheduling` in its input (docs/scheduling.md).
  const slot =
    input.scheduling && earlierPatch(lean, FAIR_SCHEDULING_PATCH)
      ? new JobSlot(jobId, input.projectSlug, input.scheduling)
      : undefined;
  try {
    // Queued behind another job (enqueue, interrupt): the job stays `queued` until that one has ended. Inside the try,
    // so a cancel while it waits still ends it with its error event.
    if (followUp) await awaitPredecessor(followUp);
    // Queued for a slot of its org; likewise inside the try.
    if (slot) await slot.acquire(emit);
    // Inside the try: a job cancelled before a worker took it is cancelled here, and still ends with its error event.
    if (!(await markRunningOnceRecorded(jobId, input.recordWaitMs, compact))) {
      upsertSearchAttributes([{ key: KEEL_STATUS, value: NOT_RECORDED_STATUS }]);
      return { status: NOT_RECORDED_STATUS, summary: 'the submission was never recorded', createdFiles: [] };
    }
    upsertSearchAttributes([{ key: KEEL_STATUS, value: 'running' }]);
    // Only a fork has `fork` in its input, so jobs recorded before forks replay the same commands.
    if (input.fork) await startFork(jobId, input, emit);
    if (followUp) await startFollowUp(jobId, followUp, emit);

    // The team lead answers non-LLM intents (commands, rules, facts) in code, without running a scenario.
    const intent = classifyIntent(input.prompt);
    if (intent.kind !== 'llm') {
      state.results.push(await runChild(run, { role: JOB_ROLE, prompt: '', deterministic: true }, [], { intent }));
    }
    const chain = { previous: undefined as string | undefined };
    const firstScenario = input.graph ?? (intent.kind === 'llm' ? firstScenarioName(input) : undefined);
    if (firstScenario) await runChain(run, chain, firstScenario);
    // A follow-up that arrived after the last level started has not been acted on: run the job's scenario again.
    while (!state.refusal && state.hasUnseenFollowUps()) {
      const unseen = state.followUps.slice(state.seenFollowUps).map((f) => f.prompt_id);
      await runChain(run, chain, input.graph ?? input.scenario ?? DEFAULT_SCENARIO, unseen);
    }
    // No await between the check above and this line, so no follow-up can slip in unseen. A follow-up accepted just
    // before still emits its prompt_appended, which must come before the terminal event.
    state.closing = true;
    await condition(allHandlersFinished);
    return await finishJob(run, intent);
  } catch (err) {
    return await failJob(run, err);
  } finally {
    // However the job ended (final, error, cancel): its slot goes to the next job. A terminate runs no code here; the
    // sweeper releases that one (docs/scheduling.md).
    if (slot) await slot.release();
  }
}

/** `#build` asks for a product build unless the job names a scenario other than the default. */
function firstScenarioName(input: JobInput): string {
  return wantsProductBuild(input.prompt) && (input.scenario ?? DEFAULT_SCENARIO) === DEFAULT_SCENARIO
    ? PRODUCT_SCENARIO
    : (input.scenario ?? DEFAULT_SCENARIO);
}

/** The job's query, signals and updates, wired to its state. */
function wireHandlers({ jobId, emit, state, lean }: JobRun): void {
  const { progress, pending } = state;
  setHandler(jobProgressQuery, () => progress);
  // Questions only, as the query promises: an approval or a human task is pending here too, but is not answered
  // through the resume Update (GET /v1/jobs/:id and team chat read this list).
  setHandler(interruptsQuery, () => pending.questions());
  // A work item runs its scenario as this job's child under the same job id; its clients resume the work item's
  // workflow (the job id), so the work item must learn of every interrupt too (workflows/work-item.ts).
  const parentId = workflowInfo().parent?.workflowId;
  const relay = parentId !== undefined && earlierPatch(lean, RELAY_INTERRUPTS_PATCH);
  setHandler(interruptRaisedSignal, async (interrupt) => {
    if (!pending.raise(interrupt, () => patched(REASKED_CALL_REOPENS_PATCH))) return;
    progress.status = 'paused';
    upsertSearchAttributes([{ key: KEEL_STATUS, value: 'paused' }]);
    if (relay) await getExternalWorkflowHandle(parentId).signal(interruptRaisedSignal, interrupt);
  });
  setHandler(interruptClearedSignal, async ({ call_id }) => {
    pending.clear(call_id);
    if (pending.size === 0 && progress.status === 'paused') {
      progress.status = 'running';
      upsertSearchAttributes([{ key: KEEL_STATUS, value: 'running' }]);
    }
    if (relay) await getExternalWorkflowHandle(parentId).signal(interruptClearedSignal, { call_id });
  });
  setHandler(
    resumeUpdate,
    async ({ call_id, answer }) => {
      // Answered at most once: a client retrying the same resume now gets unknown_call_id.
      const interrupt = pending.take(call_id)!;
      await getExternalWorkflowHandle(interrupt.workflow_id).signal(answerSignal, { call_id, answer });
      return { accepted: true as const };
    },
    {
      validator: ({ call_id, answer }: ResumeInput) => {
        const refused = pending.refusal(call_id, answer);
        if (refused) throw refused;
      },
    },
  );
  setHandler(
    appendPromptUpdate,
    async (appended) => {
      state.followUps.push(appended);
      await emit(JOB_ROLE, 'prompt_appended', {
        prompt_id: appended.prompt_id,
        preview: appended.prompt.slice(0, 200),
      });
      // Only prompts sent with a policy carry one, and none was sent before FOLLOW_UP_POLICIES_PATCH.
      if (appended.policy && earlierPatch(lean, FOLLOW_UP_POLICIES_PATCH)) {
        await emit(JOB_ROLE, 'follow_up_applied', {
          policy: appended.policy,
          prompt_id: appended.prompt_id,
          delivered: 'running_job',
        });
      }
      return { accepted: true as const };
    },
    {
      validator: (_appended) => {
        if (state.closing) {
          throw ApplicationFailure.create({
            type: JOB_CLOSING,
            message: `job ${jobId} has run its last level and cannot take a follow-up`,
          });
        }
      },
    },
  );
}

/**
 * A follow-up policy's decision about this job: an interrupt asks it to stop at its next level boundary (runChild);
 * either is recorded on its stream. A job that has run its last level stops anyway and records nothing more: its
 * terminal event may already be on its way, and the next job records the policy on its own stream.
 */
function wireFollowUps({ emit, state, lean }: JobRun): void {
  setHandler(followUpSignal, async (decision) => {
    if (!earlierPatch(lean, FOLLOW_UP_POLICIES_PATCH) || state.closing) return;
    if (decision.policy === 'interrupt') state.stopRequested = decision;
    await emit(JOB_ROLE, 'follow_up_applied', {
      policy: decision.policy,
      ...(decision.prompt_id ? { prompt_id: decision.prompt_id } : {}),
      delivered: decision.policy === 'interrupt' ? 'interrupted' : 'rejected',
      ...(decision.next_job_id ? { next_job_id: decision.next_job_id } : {}),
    });
  });
}

/** How a level run differs from a plain one. */
interface ChildExtra {
  verifyAttempt?: number;
  intent?: Exclude<Intent, { kind: 'llm' }>;
  review?: boolean;
}

/** Runs one level as a child workflow and accounts for its cost against the job's budget. */
async function runChild(
  run: JobRun,
  level: ScenarioLevel,
  context: EarlierOutput[],
  extra: ChildExtra = {},
): Promise<LevelResult> {
  const { input, jobId, emit, state } = run;
  // A level boundary: an interrupt stops the job here, before the level starts (the next job carries its workspace).
  if (state.stopRequested) {
    const by = state.stopRequested;
    throw ApplicationFailure.create({
      type: JOB_INTERRUPTED,
      message: `interrupted by follow-up prompt ${by.prompt_id ?? '?'}; job ${by.next_job_id ?? '?'} carries on with its workspace`,
      nonRetryable: true,
    });
  }
  // `context` holds every follow-up so far (nothing awaited since it was built); a level composed in code does not
  // act on them, so only a model-backed level counts as having seen them.
  if (!level.deterministic) state.seenFollowUps = state.followUps.length;
  const attempt = state.nextAttempt(level.role);
  state.progress.currentLevel = level.role;
  // Shown on the job's page in the Temporal UI while it runs ("Current details").
  setCurrentDetails(`Running **${level.role}**${attempt > 1 ? `, attempt ${attempt}` : ''}`);
  const previous = state.previousRole;
  const handoff = previous ? { role: JOB_ROLE, from: previous, to: level.role, attempt } : undefined;
  if (handoff && !run.compact) await emit(JOB_ROLE, 'agent_handoff', { from: handoff.from, to: handoff.to, attempt });
  state.previousRole = level.role;
  let result: LevelResult;
  const carried: CarriedLevel | undefined = run.carry.take(level.role, attempt);
  // The job's held events come before anything the level tells.
  await emit.flush();
  try {
    result = carried
      ? await carryLevel(jobId, emit, carried)
      : await executeChild(runLevel, levelChildOptions(run, level, attempt, context, extra, handoff));
  } catch (err) {
    // A level that stopped itself for budget reports what it spent in the failure's details.
    const overrun = failureOfType(err, BUDGET_EXCEEDED);
    if (overrun) {
      state.spentUsd += Number((overrun.details as unknown[] | undefined)?.[0] ?? 0);
      await emit(JOB_ROLE, 'budget_exceeded', { total_usd: state.spentUsd, limit_usd: input.budgetUsd ?? null });
    }
    // Stopped at a budget decision: the level already said budget_exceeded when it paused.
    const stopped = failureOfType(err, BUDGET_STOPPED);
    if (stopped) state.spentUsd += Number((stopped.details as unknown[] | undefined)?.[0] ?? 0);
    throw err;
  }
  state.account(level.role, result);
  // The submitter's decisions while the level was paused hold for the levels after it (a carried level's were its
  // source's: the fork keeps its own ceiling and tier).
  if (result.budget && !carried) {
    state.budgetUsd = result.budget.ceilingUsd ?? undefined;
    state.modelTier = result.budget.modelTier;
  }
  if (carried) state.carriedOver(result);
  if (result.costUsd > 0 || input.budgetUsd !== undefined) {
    await emit(JOB_ROLE, 'budget_consumed', {
      level_id: levelWorkflowId(jobId, level.role, attempt),
      level_cost_usd: result.costUsd,
      total_usd: state.spentUsd,
      limit_usd: state.budgetUsd ?? null,
      ...(result.budget ? { level_reserved_usd: result.budget.reservedUsd } : {}),
    });
  }
  if (!run.pausing && input.budgetUsd !== undefined && state.spentUsd > input.budgetUsd) {
    await emit(JOB_ROLE, 'budget_exceeded', { total_usd: state.spentUsd, limit_usd: input.budgetUsd });
    throw ApplicationFailure.create({
      type: BUDGET_EXCEEDED,
      message: `the job spent $${state.spentUsd.toFixed(4)}, past its $${input.budgetUsd.toFixed(4)} budget`,
      nonRetryable: true,
    });
  }
  return result;
}

/** The child workflow of one level run: a readable id, its search attributes and summary, and its input. */
function levelChildOptions(
  { input, jobId, state, compact, pausing }: JobRun,
  level: ScenarioLevel,
  attempt: number,
  context: EarlierOutput[],
  extra: ChildExtra,
  handoff: { role: string; from: string; to: string; attempt: number } | undefined,
) {
  return {
    workflowId: levelWorkflowId(jobId, level.role, attempt),
    typedSearchAttributes: workflowInfo().typedSearchAttributes.updateCopy([
      { key: KEEL_STATUS, value: null },
      { key: KEEL_KIND, value: 'level' },
    ]),
    staticSummary: `${level.role}${attempt > 1 ? ` · attempt ${attempt}` : ''}`,
    memo: { role: level.role, job_id: jobId, attempt },
    args: [
      {
        ids: input.ids,
        role: level.role,
        attempt,
        level,
        request: input.prompt,
        context,
        modelTier: state.modelTier,
        verifyAttempt: extra.verifyAttempt,
        ...(extra.review ? { review: true } : {}),
        budgetRemainingUsd:
          !pausing && input.budgetUsd !== undefined ? Math.max(0, input.budgetUsd - state.spentUsd) : undefined,
        ...(pausing ? { budget: { ceilingUsd: state.budgetUsd ?? null } } : {}),
        heartbeatEveryMs: input.heartbeatEveryMs,
        intent: extra.intent,
        ...(handoff && compact ? { handoff } : {}),
      },
    ] as [LevelInput],
  };
}

/** Runs a scenario and the chain that follows it; `first` is the workflow's graph or a scenario file's name. */
async function runChain(
  run: JobRun,
  chain: { previous: string | undefined },
  first: Scenario | string,
  followUpIds: string[] = [],
): Promise<void> {
  const { emit, state, book, product } = run;
  let scenario: Scenario = typeof first === 'string' ? await book.loadScenario({ name: first }) : first;
  for (;;) {
    if (chain.previous) {
      await emit.later(JOB_ROLE, 'scenario_chained', {
        from: chain.previous,
        to: scenario.name,
        ...(followUpIds.length > 0 ? { follow_up_prompts: followUpIds } : {}),
      });
      followUpIds = [];
    }
    state.progress.scenario = scenario.name;
    // Held (a lean run): stored with the events before the first level's (runChild), one local activity for them all.
    await emit.later(JOB_ROLE, 'scenario_started', {
      scenario: scenario.name,
      levels: scenario.levels.map((l) => l.role),
    });
    if (scenario.product && !state.refusal) await prepareProduct(run, scenario);
    if (state.refusal) {
      await emit(JOB_ROLE, 'scenario_finished', { scenario: scenario.name });
      return;
    }
    await runScenario(run, scenario);
    if (scenario.product) state.release = await product.after(scenario);
    await emit.later(JOB_ROLE, 'scenario_finished', { scenario: scenario.name });
    chain.previous = scenario.name;
    if (!scenario.chain) return;
    scenario = await book.loadScenario({ name: scenario.chain.scenario });
  }
}

/** A product scenario's template and design, before its levels run; a person may decline the build here. */
async function prepareProduct({ product, state }: JobRun, scenario: Scenario): Promise<void> {
  const prepared = await product.before(scenario);
  if (prepared.refused !== undefined) {
    state.refusal = prepared.refused;
    return;
  }
  state.results.push({
    role: prepared.context.role,
    ok: true,
    output: prepared.context.output,
    deltas: [],
    createdFiles: prepared.files,
    costUsd: 0,
    reasoningTokens: 0,
  });
  state.addFiles(prepared.files);
}

/**
 * Runs a scenario's levels in order. An executor followed by a verifier is a loop: a failed verification
 * sends the deltas back to the executor up to MAX_SAME_LEVEL_RETRIES times, then once to the L2 level that
 * issued the task, then fails the job.
 */
async function runScenario(run: JobRun, scenario: Scenario): Promise<void> {
  const levels = scenario.levels;
  // The scenario's review leads, in its order; they review every result the verifier passes.
  const leads = levels.filter((l) => isReviewLead(l.role) && !l.deterministic);
  const reviewers = leads.length > 0 && earlierPatch(run.lean, REVIEW_LEADS_PATCH) ? leads : [];
  for (let i = 0; i < levels.length; i += 1) {
    const level = levels[i]!;
    const verifier = levels[i + 1];
    if (!level.role.startsWith('L4.') || !verifier?.role.startsWith('L3.')) {
      run.state.results.push(await runChild(run, level, run.state.contextOf()));
      continue;
    }
    await executeAndVerify(run, scenario, { executor: level, verifier, reviewers });
    i += 1;
  }
}

/** An executor, the verifier after it, and the review leads of its scenario. */
interface VerifiedPair {
  executor: ScenarioLevel;
  verifier: ScenarioLevel;
  reviewers: ScenarioLevel[];
}

/** The verification loop of one executor: retry, escalate to the issuing L2 level, or fail, as the gate decides. */
async function executeAndVerify(run: JobRun, scenario: Scenario, pair: VerifiedPair): Promise<void> {
  const { jobId, emit, state } = run;
  const levels = scenario.levels;
  const issuerIndex = state.results.map((r) => r.role).findLastIndex((role) => role.startsWith('L2.'));
  let retries = 0;
  let escalated = false;
  let deltas: string[] = [];
  for (;;) {
    const { executed, built, verified, reviewed } = await attempt(run, scenario, pair, deltas);
    const blocked = reviewed?.failed;
    const issuer = issuerIndex >= 0 ? levels.find((l) => l.role === state.results[issuerIndex]!.role) : undefined;
    const outcome = decideGate({
      check: built.ok
        ? {
            by: 'verifier',
            levelId: levelWorkflowId(jobId, pair.verifier.role, state.attemptOf(pair.verifier.role)),
            verdict: verified!.verdict,
            deltas: verified!.deltas,
            ...(blocked ? { blocked: { levelId: blocked.levelId, deltas: blocked.result.deltas } } : {}),
          }
        : { by: 'build', levelId: built.levelId, deltas: built.deltas },
      retries,
      maxRetries: MAX_SAME_LEVEL_RETRIES,
      escalated,
      hasIssuer: issuer !== undefined,
    });
    const gate = {
      level_id: outcome.levelId,
      attempt: state.verifications,
      ...(blocked ? { reviewer: blocked.result.role } : {}),
    };
    if (outcome.decision === 'pass') {
      await emit.later(JOB_ROLE, 'gate_decision', {
        ...gate,
        decision: 'pass',
        verdict: verified!.verdict ?? 'unknown',
        ...(reviewed!.passed.length > 0 ? { reviewed_by: reviewed!.passed.map((r) => r.role) } : {}),
      });
      state.results.push(executed, verified!, ...reviewed!.passed);
      return;
    }
    deltas = outcome.deltas;
    if (outcome.decision === 'retry') {
      retries += 1;
      await emit(JOB_ROLE, 'gate_decision', { ...gate, decision: 'retry', to: pair.executor.role, deltas });
      continue;
    }
    if (outcome.decision === 'fail') {
      await emit(JOB_ROLE, 'gate_decision', { ...gate, decision: 'fail', deltas });
      throw ApplicationFailure.create({
        type: VERIFICATION_FAILED,
        message: `verification still failing after ${state.verifications} attempts: ${deltas.join('; ')}`,
        nonRetryable: true,
      });
    }
    escalated = true;
    retries = 0;
    await emit(JOB_ROLE, 'gate_decision', { ...gate, decision: 'escalate', to: issuer!.role, deltas });
    state.results[issuerIndex] = await runChild(run, issuer!, state.contextOf([deltasAsContext(deltas)]));
    deltas = [];
  }
}

const deltasAsContext = (deltas: string[]): EarlierOutput => ({
  role: 'L3.verifier (deltas)',
  output: deltas.map((d) => `- ${d}`).join('\n'),
});

/**
 * One attempt of an executor: it runs with the deltas to fix, a product build runs for real (a failed build is a
 * failed verification without asking the verifier), the verifier judges, and the review leads review what it passed.
 */
async function attempt(run: JobRun, scenario: Scenario, pair: VerifiedPair, deltas: string[]) {
  const { state, product } = run;
  const feedback = deltas.length > 0 ? [deltasAsContext(deltas)] : [];
  const executed = await runChild(run, pair.executor, state.contextOf([...product.buildHistory(), ...feedback]));
  state.verifications += 1;
  const built = await product.verify(scenario);
  const verified = built.ok
    ? await runChild(
        run,
        pair.verifier,
        state.contextOf([...feedback, { role: executed.role, output: executed.output }]),
        {
          verifyAttempt: state.verifications,
        },
      )
    : undefined;
  // A result the verifier passed is reviewed by the review leads; a blocking finding fails it like a verdict.
  const reviewed =
    verified && verified.verdict !== 'fail' ? await review(run, pair.reviewers, executed, feedback) : undefined;
  return { executed, built, verified, reviewed };
}

/**
 * Each lead reviews the executor's result in turn; the first review with a blocking finding stops the round and
 * is returned with its level id, else every passed review.
 */
async function review(
  run: JobRun,
  leads: ScenarioLevel[],
  executed: LevelResult,
  feedback: EarlierOutput[],
): Promise<{ passed: LevelResult[]; failed?: { result: LevelResult; levelId: string } }> {
  const { state, jobId } = run;
  const passed: LevelResult[] = [];
  for (const lead of leads) {
    const result = await runChild(
      run,
      { ...lead, prompt: reviewBrief(lead.role), tools: undefined },
      state.contextOf([...feedback, { role: executed.role, output: executed.output }]),
      { verifyAttempt: state.verifications, review: true },
    );
    if (result.verdict === 'fail') {
      return { passed, failed: { result, levelId: levelWorkflowId(jobId, lead.role, state.attemptOf(lead.role)) } };
    }
    passed.push(result);
  }
  return { passed };
}

/** The job's end when every level passed: status, run graph, then `final`, in that order. */
async function finishJob(run: JobRun, intent: Intent): Promise<JobResult> {
  const { jobId, emit, book, state } = run;
  const { progress, results, refusal, release } = state;
  progress.currentLevel = undefined;
  const summary =
    refusal ??
    [jobSummary(state.levelRuns(), results.findLast((r) => r.verdict)?.verdict, progress.createdFiles), release?.note]
      .filter(Boolean)
      .join(' ');
  const executor = results.findLast((r) => r.role.startsWith('L4.'));
  const usage = state.usage();
  // Status before the terminal event: a client that reads the job after `final` sees it finished. The row (what the
  // ledger and budgets read) has the job's own usage: a fork's carried level runs were paid for by its source.
  await book.markJobStatus({ jobId, status: 'completed', summary, usage: state.ownUsage() });
  // Archived before the terminal event, so the run graph is there for a client that has seen `final`.
  await book.archiveRunGraph({ jobId, outcome: 'completed' });
  // A lean run's held events (the last gate_decision and scenario_finished) are stored with `final`, just before it:
  // the stream's order is the same, and one local activity instead of three.
  await emit(JOB_ROLE, 'final', {
    agent_message: refusal ?? (intent.kind !== 'llm' ? results[0]!.output : (executor?.output ?? summary)),
    summary,
    created_files: [...progress.createdFiles],
    effort: usage.effort ?? null,
    reasoning_tokens: usage.reasoningTokens,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    cost_usd: usage.costUsd,
    ...(state.carried.usd > 0 ? { carried_cost_usd: state.carried.usd } : {}),
    ...(release?.url ? { deployed_url: release.url } : {}),
  });
  upsertSearchAttributes([{ key: KEEL_STATUS, value: 'completed' }]);
  progress.status = 'completed';
  return { status: 'completed', summary, createdFiles: progress.createdFiles };
}

/** The job's end on a failure or a cancellation: status, run graph and the `error` event are written regardless. */
async function failJob({ jobId, emit, book, state }: JobRun, err: unknown): Promise<never> {
  state.closing = true;
  // Stopped by the submitter at a budget decision, or by an interrupt: cancelled, with that as the reason.
  const cancelled =
    isCancellation(err) ||
    failureOfType(err, BUDGET_STOPPED) !== undefined ||
    failureOfType(err, JOB_INTERRUPTED) !== undefined;
  state.progress.status = cancelled ? 'cancelled' : 'failed';
  // The terminal event and status must be written even though this workflow is being cancelled.
  await CancellationScope.nonCancellable(async () => {
    await condition(allHandlersFinished);
    await book.markJobStatus({
      jobId,
      status: cancelled ? 'cancelled' : 'failed',
      error: { code: cancelled ? cancelCode(err) : errorCode(err), message: describe(err) },
    });
    await book.archiveRunGraph({ jobId, outcome: cancelled ? 'cancelled' : 'failed' });
    await emit(JOB_ROLE, 'error', {
      retryable: !cancelled && !isNonRetryable(err),
      code: cancelled ? cancelCode(err) : errorCode(err),
      message: cancelled && isCancellation(err) ? 'the job was cancelled' : describe(err),
    });
  });
  upsertSearchAttributes([{ key: KEEL_STATUS, value: state.progress.status }]);
  throw err;
}

/**
 * A cancellation's code: `budget_exceeded` when the submitter stopped the job at a budget decision, `interrupted` when
 * an interrupt follow-up stopped it at a level boundary.
 */
function cancelCode(err: unknown): string {
  if (failureOfType(err, JOB_INTERRUPTED)) return 'interrupted';
  return failureOfType(err, BUDGET_STOPPED) ? 'budget_exceeded' : 'cancelled';
}

/** The failure's own type where Keel gave it one (budget, verification), else a generic code. */
function errorCode(err: unknown): string {
  for (const link of failureChain(err)) {
    if (link.type === VERIFICATION_FAILED) return 'verification_failed';
    if (link.type === BUDGET_EXCEEDED) return 'budget_exceeded';
  }
  return 'job_failed';
}

/** The first failure in the chain (child → activity → cause) with this ApplicationFailure type. */
function failureOfType(err: unknown, type: string): { details?: unknown } | undefined {
  for (const link of failureChain(err)) if (link.type === type) return link;
  return undefined;
}

/** A failure whose cause was marked non-retryable (e.g. a provider refusing the request) will fail again. */
function isNonRetryable(err: unknown): boolean {
  for (const link of failureChain(err)) if (link.nonRetryable) return true;
  return false;
}

/**
 * The innermost message of a failure chain (child → activity → cause) is the one a user can act on; it reaches the
 * client, so server paths in it are cut to their last segment.
 */
function describe(err: unknown): string {
  let message = (err as { message?: string } | undefined)?.message ?? String(err);
  for (const link of failureChain(err)) if (link.message) message = link.message;
  return withoutServerPaths(message);
}

import {
  ActivityCancellationType,
  ApplicationFailure,
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ChatMessage, ToolCall } from '../routing/chat-types';
import { strongestRung, type Rung } from '../pure/rungs';
import { parseToolArguments } from '../pure/tool-arguments';
import {
  answerSignal,
  BUDGET_EXCEEDED,
  BUDGET_STOPPED,
  JOB_ROLE,
  interruptClearedSignal,
  interruptRaisedSignal,
  TOOL_ROUNDS_EXHAUSTED,
  type LevelInput,
  type LevelResult,
  type WorkspaceSnapshotRef,
} from './definitions';
import { createEmitter, type Emitter } from './emit';
import { answerCommand, keptFile } from './intents';
import { approvalDecisionSignal } from './human-input';
import { levelMessages, parseVerdict, preview } from './prompts';
import { parseReview } from '../pure/review-leads';
import { toolsFor, withMcpTools } from './tools';
import { mcpServerOf, unofferedMcpTool, type McpToolset } from '../pure/mcp-tools';
import { LEVEL_ACTIVITY_RETRY } from './activity-retry';
import { fallbackAfterWalk, fallbackAtRouting } from './provider-fallback';
import {
  budgetChoices,
  budgetQuestion,
  cheaperTier,
  defaultRaiseUsd,
  parseBudgetDecision,
  type BudgetQuestionTerms,
} from '../pure/budget-decision';
import {
  APPROVAL_POLICY_PATCH,
  MCP_TOOLS_PATCH,
  PROVIDER_FALLBACK_PATCH,
  RAISE_BEFORE_ANNOUNCE_PATCH,
  UNLISTED_COMMAND_APPROVAL_PATCH,
  WAIT_REMINDERS_PATCH,
  ESCALATION_PEOPLE_PATCH,
  WORKSPACE_SNAPSHOT_PATCH,
  earlierPatch,
  LEAN_HISTORY_PATCH,
} from './patches';
import {
  approvalFacts,
  evaluatePolicy,
  policyDecider,
  type ApprovalFacts,
  type ReminderSchedule,
} from '../pure/approval-policy';
import { waitSteps, type WaitStep } from '../pure/wait-steps';

const { routeLevel, callModel } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // callModel heartbeats every 5 s; a worker that dies mid-call is noticed within this.
  heartbeatTimeout: '20 seconds',
  // A cancelled level waits until its model call has really been aborted, so no paid call outlives its job.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 4 },
});

const {
  runWorkspaceTool,
  readWorkspace,
  createApproval,
  markJobStatus,
  searchKnowledgeBase,
  reserveModelCall,
  settleModelCall,
  releaseModelCall,
  approvalPolicyFor,
  markApprovalWait,
  timeOutApproval,
  escalationPeople,
} = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: LEVEL_ACTIVITY_RETRY,
});

// A level's command (run_command, docs/toolbelt.md) runs up to its 2-minute limit and heartbeats meanwhile, so a worker
// that dies mid-command is noticed; the retry answers from the recorded run and never starts the command twice.
const { runWorkspaceCommand } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '20 seconds',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: LEVEL_ACTIVITY_RETRY,
});

// MCP client tools (docs/mcp.md): listing connects to each granted server and a call waits for its tool, each with the
// server's timeout and a few connection tries; a server that is down is an answer, so a retry here is for the database.
const { listMcpTools, callMcpTool } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: LEVEL_ACTIVITY_RETRY,
});

// Reads the job's changed files and stores their blobs: longer than a bookkeeping write, and it heartbeats per file.
const { snapshotWorkspace } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '2 minutes',
  retry: LEVEL_ACTIVITY_RETRY,
});

/** `heartbeat` event interval while a model call runs, unless the job sets its own. */
const DEFAULT_HEARTBEAT_MS = 15_000;

interface ToolOutcome {
  content: string;
  createdFile?: string;
}

/** One level run: what its steps below share. */
interface LevelRun {
  input: LevelInput;
  levelId: string;
  /** The job (or work item) workflow that waits on this level, told of every wait for a person. */
  parentId: string | undefined;
  role: string;
  attempt: number;
  /** `later` holds an event until the next one, stored together (lean runs). */
  emit: Emitter;
  /** LEAN_HISTORY_PATCH: the run asks no earlier patch (all taken) and tells events in a row in one local activity. */
  lean: boolean;
  /** Answers and approval decisions signalled to this level, by call id and approval id. */
  answers: Map<string, string>;
  decisions: Map<string, { decision: 'approve' | 'reject'; comment?: string; decided_by?: string }>;
  /** Files the level's tools wrote, in order. */
  createdFiles: string[];
  /** What the level's model calls cost so far (an approval policy's `max_cost_usd` counts it). */
  spentUsd: number;
  /** A level of a job that reserves its calls (LevelInput.budget): the ceiling and tier as decisions left them. */
  spend?: { ceilingUsd: number | null; tier: string | undefined; reservedUsd: number };
  /** The level's MCP tools, listed when it started (its scenario grants servers with `mcp:`). */
  mcp?: McpToolset;
}

/** What a level's model calls add up to. */
interface LevelTally {
  costUsd: number;
  reasoningTokens: number;
  promptTokens: number;
  completionTokens: number;
  /** Of promptTokens, read from the vendor's prompt cache (priced at the catalog's cached rate). */
  cachedPromptTokens: number;
  /** Keel's estimate of promptTokens before each call (routing/context-fit.ts), and the tool results the window cut or dropped. */
  promptTokensEstimated: number;
  toolResultsCut: number;
  toolResultsDropped: number;
  effort: Rung | undefined;
  answeredBy: { provider: string; model: string };
  output: string;
}

type Route = Awaited<ReturnType<Activities['routeLevel']>>;

/**
 * One level run: route, call the model in a tool loop (files, questions to a person, approvals), emit the
 * lifecycle events. Runs as a child workflow `<job_id>/<role>/<attempt>`; deterministic, all I/O in activities.
 */
export async function runLevel(input: LevelInput): Promise<LevelResult> {
  const info = workflowInfo();
  const levelId = info.workflowId;
  const { role, attempt } = input;
  // Decided before the first command (the tracing interceptor asked it first), so a level recorded before it asks the
  // earlier patches as it did.
  const lean = patched(LEAN_HISTORY_PATCH);
  const run: LevelRun = {
    input,
    levelId,
    parentId: info.parent?.workflowId,
    role,
    attempt,
    emit: createEmitter(input.ids, levelId, lean),
    lean,
    answers: new Map(),
    decisions: new Map(),
    createdFiles: [],
    spentUsd: 0,
    ...(input.budget ? { spend: { ceilingUsd: input.budget.ceilingUsd, tier: input.modelTier, reservedUsd: 0 } } : {}),
  };
  setHandler(answerSignal, ({ call_id, answer }) => void run.answers.set(call_id, answer));
  setHandler(approvalDecisionSignal, (d) => void run.decisions.set(d.approval_id, d));
  const { emit } = run;

  // Part of the job's story, told here so that the job workflow's history does not carry one marker per level run.
  const { handoff } = input;
  // Lean: held and stored with node_started, one local activity for the two (nothing runs between them).
  if (handoff)
    await emit.later(handoff.role, 'agent_handoff', { from: handoff.from, to: handoff.to, attempt: handoff.attempt });
  // Lean: held too, and handed with the handoff to routeLevel, which stores them first (no local activity of their
  // own); a level composed in code stores them with its level_started.
  await emit.later(role, 'node_started', { node_id: levelId, level_id: levelId, role, attempt });
  if (input.level.deterministic || input.intent) return composeInCode(run);
  run.mcp = await mcpToolsOf(run);
  const tools = withMcpTools(toolsFor(input.level.tools), run.mcp);
  const route = await routeFor(run, tools !== undefined);
  // patched: levels recorded before provider_fallback existed replay without its emit.
  const reportsFallback = earlierPatch(lean, PROVIDER_FALLBACK_PATCH);
  const rerouted = reportsFallback ? fallbackAtRouting(levelId, route) : undefined;
  if (rerouted) await emit.later(role, 'provider_fallback', rerouted);
  const started = await emit(role, 'level_started', { level_id: levelId, role, attempt });
  // A review lead reviewing a result is a verdict level like a verifier (its own verdict, no provider or model).
  const verifying = role.startsWith('L3.') || input.review === true;
  if (verifying) await emit(role, 'verifier_started', { level_id: levelId, attempt: input.verifyAttempt ?? 1 });

  const intended = route.candidates[0];
  const tally: LevelTally = {
    costUsd: 0,
    reasoningTokens: 0,
    promptTokens: 0,
    completionTokens: 0,
    cachedPromptTokens: 0,
    promptTokensEstimated: 0,
    toolResultsCut: 0,
    toolResultsDropped: 0,
    effort: undefined,
    answeredBy: { provider: intended?.provider ?? '', model: intended?.model ?? '' },
    output: '',
  };
  try {
    await converse(run, route, tools, reportsFallback, tally);
  } catch (err) {
    if (!isCancellation(err)) {
      await emit(
        role,
        'level_finished',
        {
          level_id: levelId,
          ok: false,
          attempt,
          duration_ms: 0,
          cost_usd: tally.costUsd,
          output_preview: preview((err as Error).message),
        },
        { durationSince: started.occurred_at },
      );
      await emit(role, 'node_finished', { node_id: levelId, level_id: levelId, ok: false });
    } else {
      // Cancelled: what the level held or handed to an activity that may not have run is stored all the same.
      await CancellationScope.nonCancellable(() => emit.flush());
    }
    throw err;
  }
  return finishLevel(run, tally, verifying, started.occurred_at);
}

/**
 * The MCP tools of the servers the level's scenario grants it (`mcp:`), listed by an activity: its result is in the
 * history, so a replay offers exactly the tools the level first offered. patched: levels recorded before MCP tools
 * listed none (no scenario could grant them then, so this only guards the workflow's command sequence).
 */
async function mcpToolsOf(run: LevelRun): Promise<McpToolset | undefined> {
  const { input, lean } = run;
  const servers = input.level.mcp ?? [];
  if (servers.length === 0 || !earlierPatch(lean, MCP_TOOLS_PATCH)) return undefined;
  // The held node_started is stored before the servers are asked.
  await run.emit.flush();
  return listMcpTools({ jobId: input.ids.job_id, servers });
}

/** Routes the level to its candidates (a level offered tools needs a model that calls them) and says so. */
async function routeFor(
  { input, levelId, role, emit }: LevelRun,
  offersTools: boolean,
  tier: string | undefined = input.modelTier,
): Promise<Route> {
  const declared = input.level.requirements ?? [];
  const requirements =
    offersTools && !declared.includes('code_generation') ? [...declared, 'code_generation'] : declared;
  const route = await emit.hand((told) =>
    routeLevel({
      role,
      budget: tier,
      requirements,
      effort: input.level.effort,
      pins: input.level.pins,
      fallbacks: input.level.fallback,
      ...told,
    }),
  );
  const intended = route.candidates[0];
  // Lean: held and stored with level_started (and a provider_fallback between them), one local activity.
  await emit.later(role, 'routing_decision', {
    level_id: levelId,
    provider: intended?.provider ?? '',
    model: intended?.model ?? '',
    model_display_name: intended?.display_name ?? '',
    tier: intended?.tier ?? '',
    model_candidates: route.candidates.map((c) => ({
      provider: c.provider,
      model: c.model,
      tier: c.tier,
      effort: c.effort ?? null,
    })),
    band: route.band,
    band_dropped: route.bandDropped,
    offline: route.offline,
  });
  return route;
}

/** The tool loop: call the model, run the tools it calls, until it answers without one (its answer is the output). */
async function converse(
  run: LevelRun,
  route: Route,
  tools: ReturnType<typeof toolsFor>,
  reportsFallback: boolean,
  tally: LevelTally,
): Promise<void> {
  const { input, levelId, role, emit } = run;
  const messages: ChatMessage[] = levelMessages(input);
  const intended = route.candidates[0];
  let candidates = route.candidates;
  const maxRounds = input.maxToolRounds ?? 8;
  for (let round = 1; ; round += 1) {
    const reserved = run.spend
      ? await reserveCall(run, candidates, messages, round, tools !== undefined, tally)
      : undefined;
    if (reserved) candidates = reserved.candidates;
    // Lean: handed to callModel, which stores it before it calls the model (no local activity of its own).
    await emit.later(role, 'prompt_sent', {
      level_id: levelId,
      round,
      preview: preview(messages.at(-1)?.content ?? ''),
      ...(reserved ? { reservation_id: reserved.id, reserved_usd: reserved.estimateUsd } : {}),
    });
    const called = emit.hand((told) => callModel({ candidates, messages, tools, ...told }));
    const reply = reserved
      ? await settledCall(run, reserved.id, withHeartbeats(run, called, round))
      : await withHeartbeats(run, called, round);
    for (const hop of reply.hops) await emit(role, 'model_fallback', { level_id: levelId, ...hop });
    if (reply.reasoning)
      await emit(role, 'thinking', { level_id: levelId, round, summary: preview(reply.reasoning, 2000) });
    tally.costUsd += reply.costUsd;
    run.spentUsd = tally.costUsd;
    tally.reasoningTokens += reply.usage.reasoningTokens;
    tally.promptTokens += reply.usage.promptTokens;
    tally.completionTokens += reply.usage.completionTokens;
    // Absent from replies recorded before prompt caching and context fitting: those replay as 0.
    tally.cachedPromptTokens += reply.usage.cachedPromptTokens ?? 0;
    tally.promptTokensEstimated += reply.prompt?.estimatedTokens ?? 0;
    tally.toolResultsCut += reply.prompt?.cut ?? 0;
    tally.toolResultsDropped += reply.prompt?.dropped ?? 0;
    tally.effort = strongestRung([tally.effort, reply.requestedEffort]);
    tally.answeredBy = { provider: reply.provider, model: reply.model };
    if (round === 1 && reportsFallback) {
      const answered = route.candidates.find((c) => c.provider === reply.provider && c.model === reply.catalogModel);
      const walked = fallbackAfterWalk(levelId, intended, answered, reply.hops);
      if (walked) await emit(role, 'provider_fallback', walked);
    }
    if (!run.spend && input.budgetRemainingUsd !== undefined && tally.costUsd > input.budgetRemainingUsd) {
      throw ApplicationFailure.create({
        type: BUDGET_EXCEEDED,
        message: `${role} spent $${tally.costUsd.toFixed(6)}, past the $${input.budgetRemainingUsd.toFixed(6)} left in the job's budget`,
        nonRetryable: true,
        // The job adds what this level spent to its total before reporting budget_exceeded.
        details: [tally.costUsd],
      });
    }
    // After the first successful turn the history is shaped for this vendor: stay on this model.
    candidates = candidates.filter((c) => c.provider === reply.provider && c.model === reply.catalogModel);
    if (reply.toolCalls.length === 0) {
      tally.output = reply.content ?? '';
      return;
    }
    if (round > maxRounds) {
      throw ApplicationFailure.create({
        type: TOOL_ROUNDS_EXHAUSTED,
        message: `${role} still calling tools after ${maxRounds} rounds`,
        nonRetryable: true,
      });
    }
    messages.push({ role: 'assistant', content: reply.content, tool_calls: reply.toolCalls });
    for (const [index, call] of reply.toolCalls.entries()) {
      // Lean: handed to a file tool's activity, stored first by it; any other tool stores it before it runs (runTool).
      await emit.later(role, 'tool_call', { level_id: levelId, call_id: call.id, name: call.function.name });
      const outcome = await runTool(run, call, `${round}.${index + 1}`);
      if (outcome.createdFile) run.createdFiles.push(outcome.createdFile);
      await emit(role, 'tool_result', { level_id: levelId, call_id: call.id, preview: preview(outcome.content) });
      messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content });
    }
  }
}

/** A level's successful end: its verdict (a verifier's or a review's), `level_finished`, `node_finished`. */
async function finishLevel(
  { input, levelId, role, attempt, emit, createdFiles, spend, lean }: LevelRun,
  tally: LevelTally,
  verifying: boolean,
  startedAt: string,
): Promise<LevelResult> {
  const { output, costUsd, effort, answeredBy, reasoningTokens, promptTokens, completionTokens } = tally;
  const review = input.review ? parseReview(role, output) : undefined;
  const verdict = review ?? (verifying ? parseVerdict(output) : undefined);
  if (verdict)
    await emit(role, 'verifier_finished', {
      level_id: levelId,
      verdict: verdict.verdict,
      deltas: verdict.deltas,
      ...(review ? { findings: review.findings } : {}),
    });
  const snapshot = await snapshotOf(input, levelId, lean);
  // Lean: held and stored with node_started's end, node_finished, one local activity for the two.
  await emit.later(
    role,
    'level_finished',
    {
      level_id: levelId,
      ok: true,
      attempt,
      duration_ms: 0,
      cost_usd: costUsd,
      output_preview: preview(output),
      // The spec: verifiers (like gates and aggregators) report no provider or model on level_finished.
      ...(verifying ? {} : { provider: answeredBy.provider, model: answeredBy.model }),
      ...(verdict ? { verdict: verdict.verdict } : {}),
      ...(effort ? { effort } : {}),
      reasoning_tokens: reasoningTokens,
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      cached_prompt_tokens: tally.cachedPromptTokens,
      prompt_tokens_estimated: tally.promptTokensEstimated,
      ...(tally.toolResultsCut ? { tool_results_cut: tally.toolResultsCut } : {}),
      ...(tally.toolResultsDropped ? { tool_results_dropped: tally.toolResultsDropped } : {}),
    },
    { durationSince: startedAt },
  );
  await emit(role, 'node_finished', { node_id: levelId, level_id: levelId, ok: true });
  return {
    role,
    ok: true,
    output,
    verdict: verdict?.verdict,
    deltas: verdict?.deltas ?? [],
    createdFiles,
    costUsd,
    effort,
    reasoningTokens,
    promptTokens,
    completionTokens,
    ...answeredBy,
    ...(snapshot ? { snapshot } : {}),
    ...(spend
      ? { budget: { ceilingUsd: spend.ceilingUsd, modelTier: spend.tier, reservedUsd: spend.reservedUsd } }
      : {}),
  };
}

/**
 * The call's reservation, settled at the reply's cost once it came, released if the call failed or was cancelled
 * (then nothing was charged). The settlement and the release run even while the level is being cancelled.
 */
async function settledCall<T extends { costUsd: number }>(run: LevelRun, reservationId: string, call: Promise<T>) {
  const jobId = run.input.ids.job_id;
  let reply: T;
  try {
    reply = await call;
  } catch (err) {
    await CancellationScope.nonCancellable(() => releaseModelCall({ reservationId }));
    throw err;
  }
  await CancellationScope.nonCancellable(() => settleModelCall({ reservationId, jobId, costUsd: reply.costUsd }));
  return reply;
}

/**
 * Reserves the next call's estimated cost before it is made. A call that does not fit pauses the level with a
 * `budget_exceeded` event and a budget decision (an ask_user question, answered wherever questions are): raise the
 * ceiling, continue on a cheaper tier (the level is routed again), retry (a monthly budget an admin raised) or stop.
 * The level then reserves again, so it resumes at this very call: nothing before it runs twice or is charged twice.
 */
async function reserveCall(
  run: LevelRun,
  candidates: Route['candidates'],
  messages: ChatMessage[],
  round: number,
  offersTools: boolean,
  tally: LevelTally,
): Promise<{ id: string; estimateUsd: number; candidates: Route['candidates'] }> {
  const { input, levelId, role, emit, answers } = run;
  const spend = run.spend!;
  const promptChars = messages.reduce((sum, m) => sum + (m.content?.length ?? 0), 0);
  for (let ask = 1; ; ask += 1) {
    const id = `${levelId}#${round}.${ask}`;
    const target = candidates[0];
    const outcome = await reserveModelCall({
      reservationId: id,
      jobId: input.ids.job_id,
      levelId,
      provider: target?.provider ?? '',
      model: target?.model ?? '',
      promptChars,
      ceilingUsd: spend.ceilingUsd,
    });
    if (outcome.ok) {
      spend.reservedUsd += outcome.estimateUsd;
      return { id, estimateUsd: outcome.estimateUsd, candidates };
    }
    const cheaper = cheaperTier(spend.tier);
    const raise = defaultRaiseUsd(outcome.committedUsd + outcome.estimateUsd - outcome.limitUsd, outcome.limitUsd);
    const choices = budgetChoices(outcome.scope, raise, cheaper);
    const terms: BudgetQuestionTerms = {
      scope: outcome.scope,
      defaultRaiseUsd: raise,
      ...(cheaper ? { cheaperTier: cheaper } : {}),
    };
    const callId = `budget-${id}`;
    const question = budgetQuestion({ ...outcome, choices });
    await waitForPerson(
      run,
      { kind: 'ask_user', call_id: callId, text: question, budget: terms },
      async () => {
        await emit(JOB_ROLE, 'budget_exceeded', {
          total_usd: outcome.committedUsd,
          limit_usd: outcome.limitUsd,
          scope: outcome.scope,
          ...(outcome.org_id ? { org_id: outcome.org_id } : {}),
          ...(outcome.project_slug ? { project_slug: outcome.project_slug } : {}),
          ...(outcome.user_id ? { user_id: outcome.user_id } : {}),
          level_id: levelId,
          call_id: callId,
          estimate_usd: outcome.estimateUsd,
          settled_usd: outcome.settledUsd,
          reserved_usd: outcome.reservedUsd,
          choices,
          default_raise_usd: raise,
        });
        await emit(role, 'ask_user', { call_id: callId, question, level_id: levelId, choices });
      },
      () => answers.has(callId),
    );
    // The job's validator took only an answer that parses; one relayed another way (a work item) asks again.
    const decision = parseBudgetDecision(answers.get(callId)!, outcome.scope, raise, cheaper) ?? { kind: 'retry' };
    if (decision.kind === 'raise') spend.ceilingUsd = (spend.ceilingUsd ?? outcome.limitUsd) + decision.usd;
    if (decision.kind === 'downgrade') spend.tier = cheaper;
    // What was decided, as the question's result: readers that close a question on its tool_result (the console, the
    // questions list) see it answered, and the stream says what the job does next.
    const taken =
      decision.kind === 'raise'
        ? `raise by $${decision.usd.toFixed(2)}: the job's ceiling is now $${spend.ceilingUsd!.toFixed(2)}`
        : decision.kind === 'downgrade'
          ? `downgrade to ${cheaper}`
          : decision.kind;
    await emit(role, 'tool_result', { level_id: levelId, call_id: callId, preview: `budget decision: ${taken}` });
    if (decision.kind === 'stop') {
      throw ApplicationFailure.create({
        type: BUDGET_STOPPED,
        message: `stopped at the budget decision: ${question.split('. Answer')[0]}`,
        nonRetryable: true,
        details: [tally.costUsd],
      });
    }
    if (decision.kind === 'downgrade') {
      candidates = (await routeFor(run, offersTools, cheaper)).candidates;
      // The held routing_decision is stored now: a reservation (an activity) comes next, not an event.
      await run.emit.flush();
    }
  }
}

/**
 * The level's last step before `level_finished`: the job's workspace as it now stands, snapshotted as this level run's
 * manifest, so a client that has seen `level_finished` can read the files at this level run. patched: levels recorded
 * before snapshots replay without the activity.
 */
async function snapshotOf(
  input: LevelInput,
  levelId: string,
  lean: boolean,
): Promise<WorkspaceSnapshotRef | undefined> {
  if (!earlierPatch(lean, WORKSPACE_SNAPSHOT_PATCH)) return undefined;
  return snapshotWorkspace({ jobId: input.ids.job_id, levelRunId: levelId });
}

/**
 * A level composed in code (no LLM call): it gathers the earlier levels' outputs under their roles, as an
 * aggregator or hand-off summary would. No routing decision, no provider or model in its events.
 */
async function composeInCode(run: LevelRun): Promise<LevelResult> {
  const { input, levelId, role, attempt, emit, lean } = run;
  const begun = await emit(role, 'level_started', { level_id: levelId, role, attempt });
  const files: string[] = [];
  let output: string;
  const intent = input.intent;
  if (intent?.kind === 'command') {
    output = answerCommand(intent.name, intent.args);
  } else if (intent) {
    const kept = keptFile(intent);
    const call: ToolCall = {
      id: `keep-${levelId}`,
      type: 'function',
      function: { name: 'write_file', arguments: JSON.stringify(kept) },
    };
    const outcome = await runTool(run, call, 'kept');
    // A held file_created is stored now: the snapshot (an activity) comes next, not an event.
    await run.emit.flush();
    if (outcome.createdFile) files.push(outcome.createdFile);
    output = `Kept the ${intent.kind} in ${kept.path}.`;
  } else {
    output = input.context.map((c) => `${c.role}: ${preview(c.output, 400)}`).join('\n') || input.request;
  }
  const snapshot = await snapshotOf(input, levelId, lean);
  // Lean: held and stored with node_started's end, node_finished, one local activity for the two.
  await emit.later(
    role,
    'level_finished',
    {
      level_id: levelId,
      ok: true,
      attempt,
      duration_ms: 0,
      cost_usd: 0,
      output_preview: preview(output),
      deterministic: true,
      ...(intent ? { intent: intent.kind } : {}),
    },
    { durationSince: begun.occurred_at },
  );
  await emit(role, 'node_finished', { node_id: levelId, level_id: levelId, ok: true });
  return {
    role,
    ok: true,
    output,
    deltas: [],
    createdFiles: files,
    costUsd: 0,
    reasoningTokens: 0,
    ...(snapshot ? { snapshot } : {}),
  };
}

/**
 * Waits for a model call, emitting a `heartbeat` event every heartbeatEveryMs while it runs, so a person
 * watching the stream sees a long call is alive. The timer runs in its own scope and is cancelled when the
 * call settles; a job cancel reaches both.
 */
async function withHeartbeats<T>(
  { input, levelId, role, emit }: LevelRun,
  call: Promise<T>,
  round: number,
): Promise<T> {
  const every = input.heartbeatEveryMs ?? DEFAULT_HEARTBEAT_MS;
  let settled = false;
  const watched = call.finally(() => void (settled = true));
  for (let beats = 1; ; beats += 1) {
    const timer = new CancellationScope();
    const tick = timer
      .run(() => sleep(every))
      .then(
        () => 'tick' as const,
        () => 'stopped' as const,
      );
    const first = await Promise.race([
      watched.then(
        () => 'done' as const,
        () => 'done' as const,
      ),
      tick,
    ]);
    if (first !== 'tick' || settled) {
      timer.cancel();
      return watched;
    }
    await emit(role, 'heartbeat', { level_id: levelId, round, waiting_ms: beats * every });
  }
}

/**
 * Executes one tool call; the returned content is what the model sees next. `place` is the call's round and position
 * in the level (`<round>.<n>`): unique even when a model repeats a call id (the demo model derives ids from arguments).
 */
async function runTool(run: LevelRun, call: ToolCall, place: string): Promise<ToolOutcome> {
  const { input, levelId, role, emit } = run;
  const args = parseToolArguments(call.function.arguments);
  // The held tool_call is stored before any tool but a file tool (whose activity stores it first).
  if (call.function.name !== 'write_file' && call.function.name !== 'edit_file') await emit.flush();
  switch (call.function.name) {
    case 'write_file':
    case 'edit_file': {
      const result = await emit.hand((told) => runWorkspaceTool({ jobId: input.ids.job_id, call, ...told }));
      if (!result.ok) return { content: result.message };
      if (result.action !== 'edited' || !run.createdFiles.includes(result.path)) {
        // Lean: held and stored with the call's tool_result, which follows with nothing between.
        await emit.later(role, 'file_created', {
          level_id: levelId,
          path: result.path,
          sha256: result.sha256,
          size_bytes: result.sizeBytes,
        });
      }
      return { content: result.message, createdFile: result.path };
    }
    case 'read_file':
    case 'list_files':
    case 'search_files':
      return { content: await readWorkspace({ jobId: input.ids.job_id, call }) };
    case 'run_command': {
      const allowed = input.level.commands ?? [];
      const runKey = `${levelId}#${place}`;
      const command = { jobId: input.ids.job_id, levelId, runKey, call, allowed };
      const outcome = await runWorkspaceCommand(command);
      // patched: levels recorded before unlisted commands could be approved answered each as refused.
      if (!outcome.unlisted || !earlierPatch(run.lean, UNLISTED_COMMAND_APPROVAL_PATCH))
        return { content: outcome.content };
      return approveUnlistedCommand(run, command, outcome.unlisted.script, outcome.content);
    }
    case 'ask_user':
      return askUser(run, call.id, args);
    case 'request_approval':
      return requestApproval(run, call.id, args);
    case 'kb_search': {
      const query = typeof args.query === 'string' ? args.query : '';
      if (!query.trim()) return { content: 'kb_search needs {"query": string}' };
      return { content: await searchKnowledgeBase({ query, k: typeof args.k === 'number' ? args.k : undefined }) };
    }
    default:
      if (mcpServerOf(call.function.name) !== undefined) return runMcpTool(run, call, place);
      return { content: `unknown tool ${call.function.name}` };
  }
}

/**
 * An MCP tool call (docs/mcp.md): one the level offers runs through `callMcpTool`, after an approval when the project
 * marks the tool as needing one (the `request_approval` path, policies and reminders included); a denied tool, one of
 * a server that is down, or one never offered is answered with why, and the level goes on.
 */
async function runMcpTool(run: LevelRun, call: ToolCall, place: string): Promise<ToolOutcome> {
  const { input, levelId } = run;
  const name = call.function.name;
  const offer = run.mcp?.tools.find((tool) => tool.name === name);
  if (!offer) return { content: unofferedMcpTool(run.mcp, name) };
  if (offer.needsApproval) {
    const shown =
      call.function.arguments.length > 300 ? `${call.function.arguments.slice(0, 300)}…` : call.function.arguments;
    const approval = await requestApproval(run, call.id, {
      action: `call ${offer.tool} on MCP server ${offer.server} with ${shown}`,
      reason: `the project marks MCP tool ${offer.tool} of ${offer.server} as needing an approval before each call`,
    });
    if (!approval.content.startsWith('approved'))
      return { content: `${name} not called: the approval was ${approval.content}` };
  }
  const outcome = await callMcpTool({
    jobId: input.ids.job_id,
    callKey: `${levelId}#${place}`,
    server: offer.server,
    tool: offer.tool,
    name,
    arguments: call.function.arguments,
  });
  return { content: outcome.content };
}

/** The `ask_user` tool: the level waits until a person answers (or, by its schedule, times out); the answer is what the model sees. */
async function askUser(run: LevelRun, callId: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const { input, levelId, role, emit, answers } = run;
  const question = typeof args.question === 'string' ? args.question : '';
  if (!question) return { content: 'ask_user needs {"question": string}' };
  // patched: levels recorded before reminders waited without reading a schedule.
  const schedule = earlierPatch(run.lean, WAIT_REMINDERS_PATCH)
    ? (await approvalPolicyFor({ jobId: input.ids.job_id })).policy?.reminders
    : undefined;
  let timedOut: string | undefined;
  await waitForPerson(
    run,
    { kind: 'ask_user', call_id: callId, text: question },
    () => emit(role, 'ask_user', { call_id: callId, question, level_id: levelId }),
    () => answers.has(callId),
    schedule && {
      schedule,
      timeOut: async (step) => {
        if (!('answer' in step)) return undefined;
        timedOut = step.answer;
        return { answer: step.answer };
      },
    },
  );
  // A timed-out question's answer is the default, even if a late answer was signalled on the way out.
  return { content: timedOut ?? answers.get(callId)! };
}

/**
 * A command outside the level's allowlist (docs/toolbelt.md): refused as before unless the project's approval policy
 * says `unlisted_commands: approval`; then it is an approval request whose action names the command (the policy's rules
 * see it like any other), and the command runs, under the call's own run key (so at most once), only when approved.
 */
async function approveUnlistedCommand(
  run: LevelRun,
  command: Parameters<Activities['runWorkspaceCommand']>[0],
  script: string,
  refusal: string,
): Promise<ToolOutcome> {
  const governed = await approvalPolicyFor({ jobId: run.input.ids.job_id });
  if (governed.policy?.unlisted_commands !== 'approval') return { content: refusal };
  const decided = await requestApproval(
    run,
    command.call.id,
    {
      action: `run_command ${script}`,
      reason: `${run.role} asks to run a command outside its allowlist (${command.allowed.join(', ')})`,
    },
    governed,
  );
  if (!decided.approved) {
    return {
      content: `run_command declined: ${script} is outside this level's allowlist and its approval was ${decided.content}; it did not run.`,
    };
  }
  const ran = await runWorkspaceCommand({ ...command, approvedScript: script });
  return { content: ran.content };
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length <= 300).slice(0, 50) : [];

/**
 * The `request_approval` tool: recorded as an approval row, then the level waits for its decision. Since
 * APPROVAL_POLICY_PATCH the project's policy sees the request first (docs/approval-policies.md): a rule that matches
 * decides it at once, recorded on the row as `policy:<rule id>`; anything else goes to a person as before.
 */
async function requestApproval(
  run: LevelRun,
  callId: string,
  args: Record<string, unknown>,
  /** The project's policy when the caller has read it already (an unlisted command's approval). */
  prefetched?: Awaited<ReturnType<Activities['approvalPolicyFor']>>,
): Promise<ToolOutcome & { approved?: boolean }> {
  const { input, levelId, role, emit, decisions } = run;
  const action = typeof args.action === 'string' ? args.action : '';
  const reason = typeof args.reason === 'string' ? args.reason : '';
  if (!action) return { content: 'request_approval needs {"action": string, "reason": string}' };
  const approvalId = `ap-${uuid4()}`;
  // patched: levels recorded before policies and reminders created the approval and waited.
  const policyAware = earlierPatch(run.lean, APPROVAL_POLICY_PATCH);
  const reminding = earlierPatch(run.lean, WAIT_REMINDERS_PATCH);
  const governed =
    prefetched ?? (policyAware || reminding ? await approvalPolicyFor({ jobId: input.ids.job_id }) : undefined);
  let facts: ApprovalFacts | undefined;
  let verdict: ReturnType<typeof evaluatePolicy>;
  if (policyAware && governed) {
    facts = approvalFacts({
      action,
      reason,
      role,
      writtenFiles: run.createdFiles,
      namedPaths: stringList(args.paths),
      // A job that reserves its calls settles each into its ledger as it ends; otherwise this level's are not in it yet.
      costUsd: governed.jobCostUsd + (run.spend ? 0 : run.spentUsd),
      branch: typeof args.branch === 'string' && args.branch.trim() ? args.branch.trim() : null,
    });
    verdict = evaluatePolicy(governed.policy, facts);
  }
  await createApproval({
    approval_id: approvalId,
    job_id: input.ids.job_id,
    workflow_id: input.ids.workflow_id,
    waiting_workflow_id: levelId,
    role,
    call_id: callId,
    action,
    reason,
    ...(facts ? { request: facts } : {}),
    ...(verdict ? { decided: { decision: verdict.decision, decided_by: policyDecider(verdict.rule_id) } } : {}),
  });
  if (verdict) {
    // Nobody is asked: no approval_requested, no pause. The decision and the rule are the record.
    await emit(role, 'approval_decided', {
      approval_id: approvalId,
      call_id: callId,
      level_id: levelId,
      decision: verdict.decision,
      decided_by: policyDecider(verdict.rule_id),
      rule_id: verdict.rule_id,
      action,
    });
    const verb = verdict.decision === 'approve' ? 'approved' : 'rejected';
    return {
      content: `${verb} by the project's approval policy (rule ${verdict.rule_id})`,
      approved: verdict.decision === 'approve',
    };
  }
  const schedule = reminding ? governed?.policy?.reminders : undefined;
  await waitForPerson(
    run,
    { kind: 'approval', call_id: callId, text: action, approval_id: approvalId },
    () =>
      emit(role, 'approval_requested', {
        approval_id: approvalId,
        call_id: callId,
        action,
        reason,
        level_id: levelId,
      }),
    () => decisions.has(approvalId),
    schedule && {
      schedule,
      timeOut: async (step) => {
        if (!('decision' in step)) return {};
        // The row decides: a person who decided a moment before the timer keeps their decision.
        const stands = await timeOutApproval({ approvalId, decision: step.decision });
        decisions.set(approvalId, stands);
        return stands.timed_out ? { decision: stands.decision } : undefined;
      },
    },
  );
  const decision = decisions.get(approvalId)!;
  if (policyAware) {
    await emit(role, 'approval_decided', {
      approval_id: approvalId,
      call_id: callId,
      level_id: levelId,
      decision: decision.decision,
      decided_by: decision.decided_by ?? 'unknown',
      action,
      ...(decision.comment ? { comment: decision.comment } : {}),
    });
  }
  const verb = decision.decision === 'approve' ? 'approved' : 'rejected';
  return {
    content: decision.comment ? `${verb}: ${decision.comment}` : verb,
    approved: decision.decision === 'approve',
  };
}

/**
 * Pauses the level until a person answers: the job learns of the interrupt (so its resume Update validates against
 * it) and records `paused`, and only then is the event that tells people appended: whoever reads it finds the job
 * ready to take the answer (docs/human-input.md).
 */
async function waitForPerson(
  run: LevelRun,
  interrupt: {
    kind: 'ask_user' | 'approval';
    call_id: string;
    text: string;
    approval_id?: string;
    budget?: BudgetQuestionTerms;
  },
  announce: () => Promise<unknown>,
  answered: () => boolean,
  reminders?: Reminders,
): Promise<void> {
  const { input, levelId, parentId, role } = run;
  // patched: levels recorded before the raise-first order announced, then raised; they replay that way.
  const raiseFirst = earlierPatch(run.lean, RAISE_BEFORE_ANNOUNCE_PATCH);
  if (!raiseFirst) await announce();
  if (parentId) {
    await getExternalWorkflowHandle(parentId).signal(interruptRaisedSignal, {
      ...interrupt,
      role,
      workflow_id: levelId,
    });
  }
  await markJobStatus({ jobId: input.ids.job_id, status: 'paused' });
  if (raiseFirst) await announce();
  await (reminders ? untilAnswered(run, interrupt, answered, reminders) : condition(answered));
  await markJobStatus({ jobId: input.ids.job_id, status: 'running' });
  if (parentId)
    await getExternalWorkflowHandle(parentId).signal(interruptClearedSignal, { call_id: interrupt.call_id });
}

/** A wait's reminder schedule, and what its timeout does (gives the default; says what it gave, for `timed_out`). */
interface Reminders {
  schedule: ReminderSchedule;
  timeOut: (
    step: Extract<WaitStep, { kind: 'timeout' }>,
  ) => Promise<{ decision?: 'approve' | 'reject'; answer?: string } | undefined>;
}

/**
 * Waits for `answered` against the schedule's durable timers (docs/reminders.md): each step whose time comes first is
 * taken (`reminder_sent`, `escalated`, `timed_out`), an answer ends the wait at once. Times count from when this wait
 * began; the workflow clock is replayed, so a replay takes the same steps.
 */
async function untilAnswered(
  { levelId, role, emit, lean }: LevelRun,
  interrupt: { kind: 'ask_user' | 'approval'; call_id: string; text: string; approval_id?: string },
  answered: () => boolean,
  reminders: Reminders,
): Promise<void> {
  const askedAt = Date.now();
  const about = {
    level_id: levelId,
    waiting_for: interrupt.kind,
    call_id: interrupt.call_id,
    ...(interrupt.approval_id ? { approval_id: interrupt.approval_id } : {}),
    text: interrupt.text,
  };
  for (const step of waitSteps(reminders.schedule, interrupt.kind)) {
    // At least a millisecond: a zero timeout would mean none.
    const left = Math.max(1, askedAt + step.atSeconds * 1000 - Date.now());
    if (await condition(answered, left)) return;
    const waited_seconds = Math.round((Date.now() - askedAt) / 1000);
    if (step.kind === 'remind') {
      if (interrupt.approval_id) await markApprovalWait({ approvalId: interrupt.approval_id, kind: 'reminded' });
      await emit(role, 'reminder_sent', { ...about, waited_seconds });
    } else if (step.kind === 'escalate') {
      // Who the target stands for, as the identity service lists them now (null: not resolved, the target alone).
      const people = earlierPatch(lean, ESCALATION_PEOPLE_PATCH) ? await escalationPeople({ to: step.to }) : undefined;
      if (interrupt.approval_id)
        await markApprovalWait({
          approvalId: interrupt.approval_id,
          kind: 'escalated',
          to: step.to,
          ...(people !== undefined ? { people } : {}),
        });
      await emit(role, 'escalated', { ...about, waited_seconds, to: step.to, ...(people ? { people } : {}) });
    } else {
      const given = await reminders.timeOut(step);
      // undefined: a person's answer reached the record first; the wait ended by them, not by the timer.
      if (given) await emit(role, 'timed_out', { ...about, waited_seconds, ...given });
      return;
    }
  }
  await condition(answered);
}

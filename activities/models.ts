import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Candidate, LevelRouting, Rung } from '../routing/catalog/types';
import type { ChatMessage, ToolCall, ToolDefinition } from '../routing/chat-types';
import { NoCandidateAnswered, type Hop } from '../routing/dispatch';
import type { ModelRouter, RouteDecision } from '../routing/router';
import { logger } from '../telemetry/logger';
import { createLiveCall, type LiveCall } from '../events/live-output';
import { jobOfLevel } from '../events/live-deltas';
import type { QueueStore } from '../queue/queue-store';

/**
 * Must stay well under the heartbeat timeout the workflows set on callModel. A cancel is delivered in the answer to a
 * heartbeat, so a call that heartbeats once a second is aborted within about a second of its job's cancel, also while
 * the vendor is silent (a reasoning model thinking before its first token, still billing).
 */
const HEARTBEAT_EVERY_MS = 1_000;
/**
 * A streaming call also heartbeats with how much it has streamed (the Temporal UI shows it on the pending activity),
 * at most this often: the worker sends a heartbeat at most every 800 ms anyway, and handing the SDK one per token cost
 * the worker a payload encoding and a trip through its heartbeat pipeline per token (docs/performance.md).
 */
const STREAMED_HEARTBEAT_EVERY_MS = 250;

/** What a level gets back from one model call: the answer, who gave it, and the walk that led there. */
export interface ModelReply {
  provider: string;
  /** The model id the vendor reported; `catalogModel` is the catalog row that was called. */
  model: string;
  catalogModel: string;
  tier: string;
  content: string | null;
  toolCalls: ToolCall[];
  /**
   * As the vendor reported them; `cachedPromptTokens` of the prompt tokens came from its prompt cache. The optional
   * fields are absent from replies recorded before they existed.
   */
  usage: { promptTokens: number; completionTokens: number; reasoningTokens: number; cachedPromptTokens?: number };
  /** The prompt as sent: Keel's token estimate before the call, and the tool results the window made it cut or drop. */
  prompt?: { estimatedTokens: number; cut: number; dropped: number };
  /** The vendor's reasoning summary, where it returned one. */
  reasoning?: string;
  costUsd: number;
  effort?: Rung;
  requestedEffort?: Rung;
  hops: Hop[];
}

/** Whether model calls stream their output to the jobs' live channels, and how long a silent stream may last. */
export interface LiveOutputSettings {
  /** Off: every call is one request and one answer, as before streaming existed (KEEL_LIVE_OUTPUT=0). */
  enabled: boolean;
  /** KEEL_STREAM_STALL_MS; STREAM_STALL_MS by default. */
  stallMs?: number;
}

/** A call's buffer for clients that join mid-call: its newest 256 KiB of deltas, kept 10 minutes after the last. */
const LIVE_BUFFER_BYTES = 256 * 1024;
const LIVE_BUFFER_TTL_MS = 10 * 60 * 1000;

export function modelActivities(deps: {
  models: ModelRouter;
  log?: (line: string) => void;
  /** Where live output is published; without one no call streams. */
  queue?: QueueStore;
  liveOutput?: LiveOutputSettings;
}) {
  const routingLog = logger('routing');
  const log = deps.log ?? ((line: string) => routingLog.warn(line));
  // A routing note describes the catalog and the keys, which stay as they are for the process's life: said once,
  // it is news; said again for every level of every job (offline mode), it buries everything else in the log.
  const said = new Set<string>();
  const sayOnce = (note: string) => {
    if (said.has(note) || said.size >= 1000) return;
    said.add(note);
    log(`${note} (said once)`);
  };
  /**
   * The live output of this activity's call: the level run is the calling workflow (`<job_id>/<role>/<attempt>`),
   * the call is the activity (its id is stable across retries), and each retry's attempts are named apart. Pieces
   * also heartbeat (STREAMED_HEARTBEAT_EVERY_MS), so the call's progress is reported while tokens flow.
   */
  const liveCallOf = (context: Context): LiveCall | undefined => {
    if (!deps.queue || deps.liveOutput?.enabled === false) return undefined;
    const { workflowExecution, activityId, attempt } = context.info;
    // An activity run outside a workflow (a test's mock context) has no level run to report to.
    if (!workflowExecution) return undefined;
    const levelId = workflowExecution.workflowId;
    const call = createLiveCall({
      queue: deps.queue,
      jobId: jobOfLevel(levelId),
      levelId,
      callId: `${levelId}#${activityId}`,
      attemptPrefix: String(attempt),
      maxBufferBytes: LIVE_BUFFER_BYTES,
      bufferTtlMs: LIVE_BUFFER_TTL_MS,
      onError: (err) =>
        liveLog.warn({ err: String(err), level_id: levelId }, 'live output not published (queue store)'),
    });
    let streamed = 0;
    let beatAt = -Infinity;
    return {
      begin(candidate) {
        const attempt = call.begin(candidate);
        return {
          piece(piece) {
            streamed += piece.text.length;
            const now = performance.now();
            if (now - beatAt >= STREAMED_HEARTBEAT_EVERY_MS) {
              beatAt = now;
              context.heartbeat({ streamed });
            }
            attempt.piece(piece);
          },
          discard: () => attempt.discard(),
          end: () => attempt.end(),
        };
      },
      settled: () => call.settled(),
    };
  };
  const liveLog = logger('live-output');

  return {
    /** Resolves a level's ordered candidates from the catalog, team controls, budget and requirements. */
    async routeLevel(input: LevelRouting): Promise<RouteDecision> {
      const decision = deps.models.resolve(input);
      for (const note of decision.notes) sayOnce(note);
      return Promise.resolve(decision);
    },

    /**
     * One LLM call through the walk. When every candidate refused for a reason retrying cannot fix,
     * the failure is non-retryable; otherwise Temporal retries the activity (and the walk) later.
     */
    async callModel(input: {
      candidates: Candidate[];
      messages: ChatMessage[];
      tools?: ToolDefinition[];
    }): Promise<ModelReply> {
      // Heartbeats let Temporal deliver a cancel (job cancel, worker shutdown) to a long call; the signal aborts it.
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      const live = liveCallOf(context);
      try {
        const outcome = await deps.models.call({
          ...input,
          signal: context.cancellationSignal,
          ...(live ? { live, stallMs: deps.liveOutput?.stallMs } : {}),
        });
        return {
          provider: outcome.provider,
          model: outcome.model,
          catalogModel: outcome.candidateModel,
          tier: outcome.tier,
          content: outcome.reply.content,
          toolCalls: outcome.reply.toolCalls,
          usage: {
            promptTokens: outcome.reply.usage.inputTokens,
            completionTokens: outcome.reply.usage.outputTokens,
            reasoningTokens: outcome.reply.usage.reasoningTokens,
            cachedPromptTokens: outcome.reply.usage.cachedInputTokens ?? 0,
          },
          prompt: outcome.prompt,
          reasoning: outcome.reply.reasoning,
          costUsd: outcome.costUsd,
          effort: outcome.effort,
          requestedEffort: outcome.requestedEffort,
          hops: outcome.hops,
        };
      } catch (err) {
        // Report a cancel as a cancel (not as the HTTP client's abort error), so Temporal records it as such.
        if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason;
        if (err instanceof NoCandidateAnswered) {
          throw ApplicationFailure.create({ type: err.name, message: err.message, nonRetryable: err.permanent });
        }
        throw err;
      } finally {
        clearInterval(beat);
        // The attempt's last delta (its `end`, or the `discard` of a failed or cancelled one) is on the live channel
        // before the level hears the outcome, so it precedes the durable events that follow (a cancelled job's
        // terminal event among them). Publishing never throws; a queue store that is down fails it fast.
        await live?.settled();
      }
    },
  };
}

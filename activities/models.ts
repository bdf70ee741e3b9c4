import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Candidate, LevelRouting, Rung } from '../routing/catalog/types';
import type { ChatMessage, ToolCall, ToolDefinition } from '../routing/chat-types';
import { NoCandidateAnswered, type Hop } from '../routing/dispatch';
import type { ModelRouter, RouteDecision } from '../routing/router';
import { logger } from '../telemetry/logger';

/** Must stay well under the heartbeat timeout the workflows set on callModel. */
const HEARTBEAT_EVERY_MS = 5_000;

/** What a level gets back from one model call: the answer, who gave it, and the walk that led there. */
export interface ModelReply {
  provider: string;
  /** The model id the vendor reported; `catalogModel` is the catalog row that was called. */
  model: string;
  catalogModel: string;
  tier: string;
  content: string | null;
  toolCalls: ToolCall[];
  usage: { promptTokens: number; completionTokens: number; reasoningTokens: number };
  /** The vendor's reasoning summary, where it returned one. */
  reasoning?: string;
  costUsd: number;
  effort?: Rung;
  requestedEffort?: Rung;
  hops: Hop[];
}

export function modelActivities(deps: { models: ModelRouter; log?: (line: string) => void }) {
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
      try {
        const outcome = await deps.models.call({ ...input, signal: context.cancellationSignal });
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
          },
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
      }
    },
  };
}

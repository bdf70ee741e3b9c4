import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ChatMessage, ModelReply, ModelRoute, ToolDefinition } from '../routing/chat-types';
import { ModelRequestRejected, type ModelGateway } from '../routing/gateway';

/** Must stay well under the heartbeat timeout the workflows set on callModel. */
const HEARTBEAT_EVERY_MS = 5_000;

export function modelActivities(deps: { models: ModelGateway }) {
  return {
    /** Picks where a level's call goes. Pure today; reads live quota once the catalog lands. */
    async routeLevel(input: { role: string; modelTier?: string }): Promise<ModelRoute> {
      return Promise.resolve(deps.models.route(input.role, input.modelTier));
    },

    /** One LLM call. A refusal that retrying cannot fix fails without retries; anything else retries. */
    async callModel(input: {
      route: ModelRoute;
      messages: ChatMessage[];
      tools?: ToolDefinition[];
    }): Promise<ModelReply> {
      // Heartbeats let Temporal deliver a cancel (job cancel, worker shutdown) to a long call; the signal aborts it.
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        return await deps.models.call(input.route, input.messages, input.tools, context.cancellationSignal);
      } catch (err) {
        // Report a cancel as a cancel (not as the HTTP client's abort error), so Temporal records it as such.
        if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason;
        if (err instanceof ModelRequestRejected) {
          throw ApplicationFailure.create({ type: err.name, message: err.message, nonRetryable: true });
        }
        throw err;
      } finally {
        clearInterval(beat);
      }
    },
  };
}

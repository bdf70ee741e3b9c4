import { ApplicationFailure } from '@temporalio/activity';
import type { ChatMessage, ModelReply, ModelRoute, ToolDefinition } from '../routing/chat-types';
import { ModelRequestRejected, type ModelGateway } from '../routing/gateway';

export function modelActivities(deps: { models: ModelGateway }) {
  return {
    /** Picks where a level's call goes. Pure today; reads live quota once the catalog lands. */
    async routeLevel(input: { role: string; modelTier?: string }): Promise<ModelRoute> {
      return Promise.resolve(deps.models.route(input.role, input.modelTier));
    },

    /** One LLM call. A refusal that retrying cannot fix fails without retries; anything else retries. */
    async callModel(input: { route: ModelRoute; messages: ChatMessage[]; tools?: ToolDefinition[] }): Promise<ModelReply> {
      try {
        return await deps.models.call(input.route, input.messages, input.tools);
      } catch (err) {
        if (err instanceof ModelRequestRejected) {
          throw ApplicationFailure.create({ type: err.name, message: err.message, nonRetryable: true });
        }
        throw err;
      }
    },
  };
}

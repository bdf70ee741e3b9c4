import type { ProviderEndpoint } from './config';

export const DEMO_PROVIDER = 'demo';
export const DEMO_MODEL = 'keel-demo';
/** The name users see in the README, GET /v1/models and routing_decision events. */
export const DEMO_DISPLAY_NAME = 'offline demo model';

/** The built-in demo model served by the stack on loopback, reached over the chat_compat wire like any provider. */
export function demoEndpoint(baseUrl: string): ProviderEndpoint {
  return {
    provider: DEMO_PROVIDER,
    model: DEMO_MODEL,
    tier: 'free',
    displayName: DEMO_DISPLAY_NAME,
    baseUrl,
    apiKey: 'demo',
  };
}

import type { ProviderEndpoint } from './config';
import { DEMO_MODEL_DISPLAY_NAME, DEMO_MODEL_ID } from './demo-model/respond';

export const DEMO_PROVIDER = 'demo';

/** The built-in demo model served by the stack on loopback, reached over the chat_compat wire like any provider. */
export function demoEndpoint(baseUrl: string): ProviderEndpoint {
  return {
    provider: DEMO_PROVIDER,
    model: DEMO_MODEL_ID,
    tier: 'free',
    displayName: DEMO_MODEL_DISPLAY_NAME,
    baseUrl,
    apiKey: 'demo',
  };
}

import { z } from 'zod';

/** The webhook slice of the API's and the worker's environment (docs/webhooks.md). */
export const webhookEnv = z.object({
  /**
   * Comma-separated host names (as written in a webhook URL) that may be delivered to although they resolve to
   * loopback or private ranges, and over plain http: a laptop's or a test's receiver. Empty: none.
   */
  WEBHOOK_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ''),
    ),
});
export type WebhookEnv = z.infer<typeof webhookEnv>;

/** How deliveries are made; every field but `allowHosts` has a production default (webhookSettings). */
export interface WebhookSettings {
  allowHosts: readonly string[];
  /** One POST's limit (connect to last byte of the answer), ms. */
  attemptTimeoutMs: number;
  /** The first retry's wait (ms); each next one doubles, up to `maximumIntervalMs`. */
  initialIntervalMs: number;
  maximumIntervalMs: number;
  /** Attempts in all, the first one included; past them the delivery is recorded `failed`. */
  maximumAttempts: number;
}

/** Production defaults: about 7 hours of retries (10 s doubling to 1 h, 15 attempts), 10 s per attempt. */
export function webhookSettings(slice: WebhookEnv, overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  return {
    allowHosts: slice.WEBHOOK_ALLOW_HOSTS,
    attemptTimeoutMs: 10_000,
    initialIntervalMs: 10_000,
    maximumIntervalMs: 3_600_000,
    maximumAttempts: 15,
    ...overrides,
  };
}

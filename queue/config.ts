import { z } from 'zod';

/** Instance ids become part of every Redis key (`keel:<instance id>:`), so they stay key- and log-safe. */
export const instanceIdPattern = /^[a-z0-9-]+$/;

/**
 * The queue store's slice of the process environment. Process configs merge it into their own schema
 * (`appEnvSchema.extend(queueEnvSchema.shape)`), so it is an object schema rather than a parsed value.
 */
export const queueEnvSchema = z.object({
  // An empty `REDIS_URL=` line in an env file means "no Redis", not "an invalid URL".
  REDIS_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.url({ protocol: /^rediss?$/, error: 'REDIS_URL must be a redis:// or rediss:// URL' }).optional(),
  ),
  KEEL_INSTANCE_ID: z
    .string()
    .regex(instanceIdPattern, 'KEEL_INSTANCE_ID may contain only lowercase letters, digits and dashes')
    .default('keel'),
});

export type QueueEnv = z.infer<typeof queueEnvSchema>;

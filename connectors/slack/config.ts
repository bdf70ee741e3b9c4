import { z } from 'zod';
import { emptyAsUndefined, parseEnv } from '../../config/parse-env';
import { SensitivitySchema } from '../../kb/sensitivity';

/**
 * One allowlisted channel. `scope` says what of the channel is copied: `all` (messages and their thread replies) or
 * `top_level` (messages only; threads are not fetched).
 */
export const ChannelPolicySchema = z.object({
  id: z.string().regex(/^[CGD][A-Z0-9]+$/, 'a Slack channel id, e.g. C0123ABCD'),
  /** The directory under sources/slack/, so a path segment as Slack spells channel names. */
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'a channel name without #, e.g. "eng-platform"'),
  scope: z.enum(['all', 'top_level']).default('all'),
  sensitivity: SensitivitySchema,
  tags: z.array(z.string().trim().min(1).max(100)).default([]),
});
export type ChannelPolicy = z.infer<typeof ChannelPolicySchema>;

const ChannelListSchema = z
  .string()
  .transform((raw, ctx) => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON: a list like [{"id":"C1","name":"general",...}]' });
      return z.NEVER;
    }
  })
  .pipe(z.array(ChannelPolicySchema).min(1, 'list at least one channel'));

export const SlackEnvSchema = z.object({
  /** The workspace's host, e.g. `acme.slack.com`; permalinks are https://<host>/archives/<channel>/p<ts>. */
  CONNECTOR_SLACK_WORKSPACE_HOST: z
    .string()
    .transform((host) => host.replace(/^https?:\/\//, '').replace(/\/+$/, ''))
    .pipe(z.string().regex(/^[a-z0-9.-]+(:\d+)?$/i, 'a host name, e.g. acme.slack.com')),
  CONNECTOR_SLACK_CHANNELS: ChannelListSchema,
  /** Whole days before today (UTC) re-rendered on every run. */
  CONNECTOR_SLACK_REWIND_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(90).default(1)),
  SLACK_API_URL: z.preprocess(emptyAsUndefined, z.url().default('https://slack.com/api')),
  CONNECTOR_SLACK_AUTH_SECRET_ID: z.string().min(1),
});
export type SlackConfig = z.infer<typeof SlackEnvSchema>;

export function loadSlackConfig(env: NodeJS.ProcessEnv): SlackConfig {
  return parseEnv(SlackEnvSchema, env, 'slack connector');
}

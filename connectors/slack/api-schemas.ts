// The Slack Web API JSON the connector reads (and the export files, which share the message shape).
import { z } from 'zod';

export const SlackTsSchema = z.string().regex(/^\d+\.\d+$/, 'a Slack timestamp like 1700000000.123456');

export const SlackFileSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().nullish(),
  title: z.string().nullish(),
  permalink: z.string().nullish(),
  url_private: z.string().nullish(),
});

export const SlackMessageSchema = z.looseObject({
  type: z.string().optional(),
  subtype: z.string().optional(),
  ts: SlackTsSchema,
  thread_ts: SlackTsSchema.optional(),
  reply_count: z.number().int().optional(),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  username: z.string().optional(),
  bot_profile: z.looseObject({ name: z.string().optional() }).optional(),
  /** Exports carry the author's profile inline. */
  user_profile: z.looseObject({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
  text: z.string().default(''),
  files: z.array(SlackFileSchema).optional(),
  reactions: z.array(z.looseObject({ name: z.string(), count: z.number().int() })).optional(),
});
export type SlackMessage = z.infer<typeof SlackMessageSchema>;

export const SlackUserSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  real_name: z.string().optional(),
  profile: z.looseObject({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
});
export type SlackUser = z.infer<typeof SlackUserSchema>;

/** Slack's preferred name: the display name people chose, else their real name, else the handle. */
export function displayName(user: SlackUser): string {
  return user.profile?.display_name || user.profile?.real_name || user.real_name || user.name || user.id;
}

const Ok = z.looseObject({ ok: z.literal(true) });
export const SlackErrorSchema = z.looseObject({ ok: z.literal(false), error: z.string() });

const Paged = Ok.extend({
  response_metadata: z.looseObject({ next_cursor: z.string().optional() }).optional(),
});
export const HistoryResponseSchema = Paged.extend({
  messages: z.array(SlackMessageSchema),
  has_more: z.boolean().optional(),
});
export const RepliesResponseSchema = HistoryResponseSchema;
export const UsersInfoResponseSchema = Ok.extend({ user: SlackUserSchema });

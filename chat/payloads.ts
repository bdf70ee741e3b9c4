import { z } from 'zod';

/**
 * What the chat system sends, as much of it as Keel reads. Objects are loose: the chat system adds fields freely, and
 * an unknown field must not turn a valid delivery into a 400 it would retry forever.
 */

/** A `message` or `app_mention` event: a message someone (or some bot) posted. */
export const ChatMessageEvent = z.looseObject({
  type: z.enum(['message', 'app_mention']),
  channel: z.string().min(1),
  /** `im` for a direct message; absent on app_mention. */
  channel_type: z.string().optional(),
  user: z.string().optional(),
  text: z.string().default(''),
  ts: z.string().min(1),
  thread_ts: z.string().optional(),
  subtype: z.string().optional(),
  bot_id: z.string().optional(),
  files: z.array(z.unknown()).optional(),
  attachments: z.array(z.unknown()).optional(),
  /** The author's workspace (`user_team` on shared channels); absent on some events. */
  team: z.string().optional(),
  user_team: z.string().optional(),
});
export type ChatMessageEvent = z.infer<typeof ChatMessageEvent>;

export const UrlVerification = z.looseObject({ type: z.literal('url_verification'), challenge: z.string() });

export const EventCallback = z.looseObject({
  type: z.literal('event_callback'),
  team_id: z.string().min(1),
  event_id: z.string().min(1),
  /** Other event types are acknowledged and ignored, so they pass as a plain object with a type. */
  event: z.looseObject({ type: z.string() }),
});

export const EventsRequest = z.discriminatedUnion('type', [UrlVerification, EventCallback]);
export type EventsRequest = z.infer<typeof EventsRequest>;

/** A button press on one of Keel's messages (`block_actions`). */
export const BlockActions = z.looseObject({
  type: z.literal('block_actions'),
  user: z.looseObject({ id: z.string().min(1), team_id: z.string().optional() }),
  team: z.looseObject({ id: z.string().min(1) }).nullish(),
  channel: z.looseObject({ id: z.string().min(1) }).optional(),
  container: z
    .looseObject({
      message_ts: z.string().optional(),
      channel_id: z.string().optional(),
      thread_ts: z.string().optional(),
    })
    .optional(),
  message: z.looseObject({ ts: z.string(), thread_ts: z.string().optional() }).optional(),
  actions: z.array(z.looseObject({ action_id: z.string().min(1), value: z.string().max(2000).optional() })).min(1),
});
export type BlockActions = z.infer<typeof BlockActions>;

/** Interactions arrive form-encoded with the JSON in one field, `payload`. */
export const InteractionForm = z.object({ payload: z.string().min(2) });

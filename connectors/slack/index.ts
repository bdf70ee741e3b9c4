import { z } from 'zod';
import type { Connector, ConnectorContext, ConnectorStep, SourceRecord } from '../contract';
import type { Clock } from '../clock';
import { systemClock } from '../clock';
import type { SlackMessage } from './api-schemas';
import { SlackTsSchema } from './api-schemas';
import { SlackClient } from './client';
import type { ChannelPolicy, SlackConfig } from './config';
import { loadSlackConfig } from './config';
import type { ChannelDay, RenderContext } from './render-day';
import { bucketChannelDays, dayMessages, dayTitle, permalink, renderChannelDay } from './render-day';
import { compareTs, effectiveOldestMs, maxTs, msToTs, tsToMs } from './timestamps';
import type { NameLookup } from './transforms';
import { mentionedUsers } from './transforms';

/** Channel id → the highest message ts written for it; each channel advances independently. */
export const SlackCursorSchema = z.record(z.string(), SlackTsSchema);
export type SlackCursor = z.infer<typeof SlackCursorSchema>;

export interface SlackConnectorOptions {
  /** Injected by tests: "today" for the rewind window, and the 429 waits. */
  clock?: Clock;
}

/** Resolves every author and mention of a day through `resolve`, so rendering itself stays synchronous. */
export async function lookupNames(
  messages: readonly SlackMessage[],
  resolve: (id: string) => Promise<string | undefined>,
): Promise<NameLookup> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.user) ids.add(message.user);
    for (const id of mentionedUsers(message.text)) ids.add(id);
  }
  const names = new Map<string, string | undefined>();
  for (const id of ids) names.set(id, await resolve(id));
  return { user: (id) => names.get(id) };
}

export function workspaceOrigin(host: string): string {
  return `https://${host}`;
}

/** The record of one channel-day, shared with the backfill tool. */
export function channelDayRecord(day: ChannelDay, context: RenderContext): SourceRecord {
  const messages = dayMessages(day);
  const latest = messages.reduce<string | undefined>((max, message) => maxTs(max, message.ts), undefined)!;
  return {
    path: `sources/slack/${context.channel.name}/${day.day}.md`,
    sourceId: `slack:${context.channel.id}:${day.day}`,
    title: dayTitle(context.channel, day.day),
    sensitivity: context.channel.sensitivity,
    tags: context.channel.tags,
    sourceUrl: permalink(context, day.threads[0]!.root.ts),
    updatedAt: new Date(tsToMs(latest)).toISOString(),
    extra: { channel: context.channel.name, channel_id: context.channel.id, day: day.day },
    body: renderChannelDay(day, context),
  };
}

/**
 * One channel-day as a connector step, shared with the backfill tool: its record, and the cursor after it. A channel's
 * position never moves backwards: a thread filed under an earlier day can hold replies newer than a later day's.
 */
export async function channelDayStep(
  day: ChannelDay,
  where: Omit<RenderContext, 'names'>,
  resolveName: (id: string) => Promise<string | undefined>,
  cursor: SlackCursor,
): Promise<{ record: SourceRecord; cursor: SlackCursor }> {
  const messages = dayMessages(day);
  const names = await lookupNames(messages, resolveName);
  const record = channelDayRecord(day, { ...where, names });
  const highest = messages
    .map((message) => message.ts)
    .sort(compareTs)
    .at(-1)!;
  return { record, cursor: { ...cursor, [where.channel.id]: maxTs(cursor[where.channel.id], highest) } };
}

async function fetchChannel(client: SlackClient, channel: ChannelPolicy, oldest: string): Promise<SlackMessage[]> {
  // History answers newest first; sorting happens in bucketChannelDays, after replies are merged in.
  const history = await client.history(channel.id, oldest);
  if (channel.scope === 'top_level')
    return history.filter((message) => message.thread_ts === undefined || message.thread_ts === message.ts);
  const messages = [...history];
  for (const message of history) {
    if (message.thread_ts === message.ts && (message.reply_count ?? 0) > 0) {
      // Replies repeat the root (and any reply also sent to the channel); bucketChannelDays de-duplicates by ts.
      messages.push(...(await client.replies(channel.id, message.ts)));
    }
  }
  return messages;
}

async function* readChannels(
  config: SlackConfig,
  clock: Clock,
  cursor: SlackCursor | undefined,
  context: ConnectorContext,
): AsyncGenerator<ConnectorStep<SlackCursor>> {
  const token = await context.secret(config.CONNECTOR_SLACK_AUTH_SECRET_ID);
  if (!token) throw new Error(`slack connector: secret "${config.CONNECTOR_SLACK_AUTH_SECRET_ID}" is not set`);
  const client = new SlackClient({ baseUrl: config.SLACK_API_URL, token, clock, signal: context.signal });
  const origin = workspaceOrigin(config.CONNECTOR_SLACK_WORKSPACE_HOST);
  let current: SlackCursor = { ...cursor };
  let records = 0;

  for (const channel of config.CONNECTOR_SLACK_CHANNELS) {
    const oldestMs = effectiveOldestMs(current[channel.id], clock.now(), config.CONNECTOR_SLACK_REWIND_DAYS);
    const days = bucketChannelDays(await fetchChannel(client, channel, msToTs(oldestMs)));
    context.log(`slack: #${channel.name}: ${days.length} day(s) since ${new Date(oldestMs).toISOString()}`);
    if (days.length === 0) {
      yield { cursor: current };
      continue;
    }
    for (const day of days) {
      const step = await channelDayStep(day, { channel, origin }, (id) => client.userName(id), current);
      current = step.cursor;
      records += 1;
      context.progress({ records, bytes: Buffer.byteLength(step.record.body) });
      yield step;
    }
  }
}

/** The Slack connector (spec: team chat) from an environment of its variables. */
export function createSlackConnector(
  env: NodeJS.ProcessEnv,
  options: SlackConnectorOptions = {},
): Connector<SlackCursor> {
  return slackConnector(loadSlackConfig(env), options);
}

/** The Slack connector over settings parsed at start. */
export function slackConnector(config: SlackConfig, options: SlackConnectorOptions = {}): Connector<SlackCursor> {
  const clock = options.clock ?? systemClock;
  return {
    name: 'slack',
    cursorSchema: SlackCursorSchema,
    read: (cursor, context) => readChannels(config, clock, cursor, context),
  };
}

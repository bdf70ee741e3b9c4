// One-shot re-seed of a channel from a Slack workspace export (channels.json, users.json, <channel>/<YYYY-MM-DD>.json),
// rendered exactly as the API connector renders, so the records land on the same paths and source ids.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Connector, ConnectorStep } from '../contract';
import type { SlackMessage } from './api-schemas';
import { displayName, SlackMessageSchema, SlackUserSchema } from './api-schemas';
import type { ChannelPolicy, SlackConfig } from './config';
import type { SlackCursor } from './index';
import { channelDayStep, SlackCursorSchema, workspaceOrigin } from './index';
import { bucketChannelDays } from './render-day';

const ExportChannelsSchema = z.array(z.looseObject({ id: z.string(), name: z.string() }));
const ExportUsersSchema = z.array(SlackUserSchema);
const ExportDaySchema = z.array(SlackMessageSchema);
const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.json$/;

export class SlackExportError extends Error {
  override name = 'SlackExportError';
}

async function readJson<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>> {
  let raw: string;
  try {
    raw = await fs.readFile(file, 'utf8');
  } catch {
    throw new SlackExportError(`${file}: missing from the export`);
  }
  const parsed = schema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new SlackExportError(`${file}: not a Slack export file: ${parsed.error.message}`);
  return parsed.data;
}

/** Every message of one channel in the export, with the export's users as the name lookup. */
export async function readExportedChannel(
  exportDir: string,
  channelId: string,
): Promise<{ messages: SlackMessage[]; users: Map<string, string>; days: number }> {
  const channels = await readJson(path.join(exportDir, 'channels.json'), ExportChannelsSchema);
  const channel = channels.find((candidate) => candidate.id === channelId);
  if (!channel) throw new SlackExportError(`channel ${channelId} is not in ${exportDir}/channels.json`);
  const users = new Map(
    (await readJson(path.join(exportDir, 'users.json'), ExportUsersSchema)).map((user) => [user.id, displayName(user)]),
  );
  const dir = path.join(exportDir, channel.name);
  const files = (await fs.readdir(dir)).filter((name) => DAY_FILE.test(name)).sort();
  const messages: SlackMessage[] = [];
  for (const file of files) messages.push(...(await readJson(path.join(dir, file), ExportDaySchema)));
  return { messages, users, days: files.length };
}

/**
 * The backfill as a connector, so the core's run writes, validates, indexes and persists the cursor exactly as for a
 * scheduled run. It yields one record per channel-day of the export; the channel's cursor entry only moves forward.
 */
export function createSlackBackfillConnector(
  config: SlackConfig,
  options: { exportDir: string; channel: string },
): Connector<SlackCursor> {
  const policy: ChannelPolicy | undefined = config.CONNECTOR_SLACK_CHANNELS.find(
    (candidate) => candidate.id === options.channel || candidate.name === options.channel,
  );
  if (!policy) {
    throw new SlackExportError(`channel "${options.channel}" is not in CONNECTOR_SLACK_CHANNELS; add its policy first`);
  }
  const origin = workspaceOrigin(config.CONNECTOR_SLACK_WORKSPACE_HOST);
  return {
    name: 'slack',
    cursorSchema: SlackCursorSchema,
    async *read(cursor, context): AsyncGenerator<ConnectorStep<SlackCursor>> {
      const { messages, users } = await readExportedChannel(options.exportDir, policy.id);
      const scoped =
        policy.scope === 'top_level'
          ? messages.filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts)
          : messages;
      let current: SlackCursor = { ...cursor };
      let records = 0;
      for (const day of bucketChannelDays(scoped)) {
        const step = await channelDayStep(day, { channel: policy, origin }, async (id) => users.get(id), current);
        current = step.cursor;
        records += 1;
        context.progress({ records, bytes: Buffer.byteLength(step.record.body) });
        yield step;
      }
    },
  };
}

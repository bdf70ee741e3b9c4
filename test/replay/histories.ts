import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { temporal } from '@temporalio/proto';

/** Where the recorded job histories live, one gzipped JSON file per job (`zcat file | jq` reads one). */
export const HISTORIES_DIR = path.join(__dirname, 'histories');

/** One recorded job: the job workflow and each level it ran as a child workflow, in start order. */
export interface RecordedJob {
  /** What the job shows (default scenario, ask_user, …). */
  name: string;
  prompt: string;
  workflows: Array<{ workflowId: string; workflowType: string; history: unknown }>;
}

/**
 * Jobs recorded by older workflow code and kept on purpose: each shows a path a later change moved behind `patched()`,
 * so the old path must still replay for jobs that were running when it shipped. `npm run replay:record` leaves them
 * alone; their events are not checked against today's contracts (they predate fields added since).
 */
export const OLDER_HISTORIES = {
  /** Waits for a person that appended the event before the job knew of the wait (docs/human-input.md). */
  'before-raise-first': path.join(HISTORIES_DIR, 'before-raise-first'),
  /** Every event appended, and the job's status written and scenarios loaded, by regular activities (docs/job-history.md). */
  'before-local-emit': path.join(HISTORIES_DIR, 'before-local-emit'),
  /** The first `running` write a regular activity, and every `agent_handoff` appended by the job workflow itself. */
  'before-compact-history': path.join(HISTORIES_DIR, 'before-compact-history'),
} as const;

export function readRecordedJobs(dir: string = HISTORIES_DIR): Array<{ file: string; job: RecordedJob }> {
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.json.gz'))
    .sort()
    .map((file) => ({
      file,
      job: JSON.parse(gunzipSync(fs.readFileSync(path.join(dir, file))).toString('utf8')) as RecordedJob,
    }));
}

type History = temporal.api.history.v1.History;
const HistoryMessage = temporal.api.history.v1.History;

const JSON_PLAIN = Buffer.from('json/plain').toString('base64');

/** Rewrites every json/plain payload of `value` with `convert` (its `data` to readable `json`, or back). */
function mapPayloads(value: unknown, convert: (payload: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => mapPayloads(item, convert));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const metadata = record.metadata as Record<string, unknown> | undefined;
  if (metadata?.encoding === JSON_PLAIN && (typeof record.data === 'string' || 'json' in record))
    return convert(record);
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, mapPayloads(item, convert)]));
}

/**
 * A history as plain JSON: protobufjs's object form (enum names, 64-bit numbers as strings), which round-trips
 * through the one protobuf runtime the SDK uses, with each json/plain payload shown as the JSON it holds rather than
 * base64, so a recorded file is readable, diffs well and compresses.
 */
export function historyToPlain(history: temporal.api.history.v1.IHistory): unknown {
  const plain = HistoryMessage.toObject(HistoryMessage.fromObject(history), {
    longs: String,
    enums: String,
    bytes: String,
  });
  return mapPayloads(plain, ({ data, ...rest }) => ({
    ...rest,
    json: JSON.parse(Buffer.from(data as string, 'base64').toString('utf8')) as unknown,
  }));
}

export function historyFromPlain(plain: unknown): History {
  const encoded = mapPayloads(plain, ({ json, ...rest }) => ({
    ...rest,
    data: Buffer.from(JSON.stringify(json), 'utf8').toString('base64'),
  }));
  return HistoryMessage.fromObject(encoded as Record<string, unknown>);
}

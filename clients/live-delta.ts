import { z } from 'zod';

/**
 * The live model output a job's stream carries (`GET /v1/jobs/:id/stream`, `event: delta` messages): the wire contract
 * of a delta, here beside the typed clients so a client reads it without Keel's server code (clients/ may not import
 * events/, docs/layout.md). The server's events/live-deltas.ts builds on this same schema, and the ingest API's OpenAPI
 * document carries it as `components.schemas.LiveDelta`, so the generated ./schema.ts names the same type
 * (docs/live-output.md).
 */

/** What a delta carries. `discard` drops an attempt's partial output; `end` says the call is over. */
export const LIVE_DELTA_KINDS = ['text', 'reasoning', 'tool_arguments', 'discard', 'end'] as const;
export type LiveDeltaKind = (typeof LIVE_DELTA_KINDS)[number];

export const liveDelta = z
  .object({
    job_id: z.string().min(1),
    level_id: z
      .string()
      .min(1)
      .describe('the level run making the call (`<job_id>/<role>/<attempt>`), as on its durable events'),
    call_id: z
      .string()
      .min(1)
      .describe('one model call of the level run (one tool-loop turn); stable across its fallbacks and retries'),
    attempt: z
      .string()
      .min(1)
      .describe(
        'one try of the call (opaque): each candidate called and each retry is a new attempt; a delta of another attempt than the one shown replaces it',
      ),
    kind: z
      .enum(LIVE_DELTA_KINDS)
      .describe(
        '`text`, `reasoning`, `tool_arguments`; `discard`: drop everything this attempt streamed; `end`: the call answered and its durable events follow',
      ),
    offset: z
      .number()
      .int()
      .min(0)
      .describe(
        'where `text` starts in its part of the attempt’s output (the text, the reasoning, or one tool call’s arguments), in UTF-16 code units: append when it is the length you have, skip what you already have',
      ),
    text: z.string().describe('the piece (at most 4096 characters; empty for `discard` and `end`)'),
    tool_call_index: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('for `tool_arguments`: which tool call of the reply (0-based)'),
    tool_name: z.string().optional().describe('for `tool_arguments`: the tool’s name, once known'),
    provider: z.string().optional().describe('the candidate answering this attempt'),
    model: z.string().optional(),
  })
  .describe('one piece of a running model call’s output (docs/live-output.md)');
export type LiveDelta = z.infer<typeof liveDelta>;

/**
 * The delta a stream's `event: delta` message carries (its `data:`), or undefined when it is not one: deltas are only
 * the animation (the durable events are the truth), so a reader skips what it cannot read rather than failing.
 */
export function readLiveDelta(data: string): LiveDelta | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  const delta = liveDelta.safeParse(parsed);
  return delta.success ? delta.data : undefined;
}

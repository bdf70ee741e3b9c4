import type { QueueStore } from '../queue/queue-store';
import type { LiveCall, LiveAttempt } from '../routing/live-call';

export type { LiveCall, LiveAttempt };
import { jobDeltaBuffers, jobDeltasChannel, type LiveDelta } from './live-deltas';

export interface LiveCallOptions {
  queue: QueueStore;
  jobId: string;
  levelId: string;
  callId: string;
  /** Prefix of the attempt ids, so a retried activity's attempts differ from the first run's. */
  attemptPrefix: string;
  /** Bound of the call's replay buffer in bytes (its newest deltas are kept). */
  maxBufferBytes: number;
  /** How long a call's buffer outlives its last delta (a worker that died mid-call leaves one behind). */
  bufferTtlMs: number;
  onError?: (err: unknown) => void;
}

/** The largest text one delta carries: a vendor chunk (or a flush of many) past it is split. */
const MAX_DELTA_TEXT = 4096;

/**
 * Publishes a call's deltas to the job's delta channel and its bounded buffer (events/live-deltas.ts). Pieces are
 * coalesced while a write is in flight: the first piece goes out at once, and whatever streams in during that round
 * trip goes out as one batch next, so a fast stream costs a write per round trip, not per token, and a slow one adds
 * no wait. Writes run one at a time, in order. Live output is best effort: a queue-store failure is reported through
 * `onError` and never fails the model call.
 */
export function createLiveCall(options: LiveCallOptions): LiveCall {
  const group = jobDeltaBuffers(options.jobId);
  const channel = jobDeltasChannel(options.jobId);
  let chain: Promise<void> = Promise.resolve();
  let attempts = 0;

  const run = (work: () => Promise<void>) => {
    chain = chain.then(work).catch((err: unknown) => options.onError?.(err));
  };

  return {
    begin(candidate) {
      attempts += 1;
      const attempt = `${options.attemptPrefix}.${attempts}`;
      const base = {
        job_id: options.jobId,
        level_id: options.levelId,
        call_id: options.callId,
        attempt,
        provider: candidate.provider,
        model: candidate.model,
      };
      const offsets = new Map<string, number>();
      let pending: LiveDelta[] = [];
      let flushing = false;
      let first = true;
      let closed = false;
      let published = false;

      const flush = async () => {
        flushing = false;
        // Runs after a close too: an `end` sends what was still pending first (a discard emptied it).
        if (pending.length === 0) return;
        const batch = pending;
        pending = [];
        const reset = first;
        first = false;
        published = true;
        await options.queue.appendBounded(
          group,
          options.callId,
          batch.map((delta) => JSON.stringify(delta)),
          {
            maxBytes: options.maxBufferBytes,
            ttlMs: options.bufferTtlMs,
            reset,
            publish: { channel, message: JSON.stringify(batch) },
          },
        );
      };

      const close = (kind: 'discard' | 'end') => {
        if (closed) return;
        closed = true;
        if (kind === 'discard') pending = [];
        run(async () => {
          // Nothing was streamed: there is nothing for a client to drop or finish.
          if (!published) return;
          const marker: LiveDelta = { ...base, kind, offset: 0, text: '' };
          await options.queue.dropBounded(group, options.callId, { channel, message: JSON.stringify([marker]) });
        });
      };

      return {
        piece(piece) {
          // An empty piece matters only when it names a tool call (its first, before any argument).
          if (closed || (piece.text === '' && piece.toolName === undefined)) return;
          const part = `${piece.kind}:${piece.toolCallIndex ?? 0}`;
          let offset = offsets.get(part) ?? 0;
          offsets.set(part, offset + piece.text.length);
          for (let start = 0; start < Math.max(piece.text.length, 1); start += MAX_DELTA_TEXT) {
            const text = piece.text.slice(start, start + MAX_DELTA_TEXT);
            const last = pending.at(-1);
            const sameTool = last?.tool_call_index === piece.toolCallIndex;
            if (last && last.kind === piece.kind && sameTool && last.offset + last.text.length === offset) {
              if (last.text.length + text.length <= MAX_DELTA_TEXT) {
                last.text += text;
                offset += text.length;
                continue;
              }
            }
            pending.push({
              ...base,
              kind: piece.kind,
              offset,
              text,
              ...(piece.toolCallIndex !== undefined ? { tool_call_index: piece.toolCallIndex } : {}),
              ...(piece.toolName !== undefined && start === 0 ? { tool_name: piece.toolName } : {}),
            });
            offset += text.length;
          }
          if (!flushing) {
            flushing = true;
            run(flush);
          }
        },
        discard: () => close('discard'),
        end: () => close('end'),
      };
    },
    settled: () => chain,
  };
}

import type { QueueStore } from '../queue/queue-store';
import { sharedRead } from '../db/shared-reads';
import { jobDeltaBuffers, jobDeltasChannel, liveDelta, liveDeltaBatch, type LiveDelta } from './live-deltas';

/**
 * A job's live deltas for one stream: first the partial output of every call in progress (the calls' bounded
 * buffers), then the deltas as they are published, each text once. The channel is subscribed before the buffers
 * are read, and a worker stores a delta in the buffer before it publishes it (one step, queue/queue-store.ts
 * `appendBounded`), so a delta is in the buffer, on the channel, or both; what both carry is sent once, by offset.
 * Resolves once the replay has been handed to `onDelta`; `close` unsubscribes. Rejects when the queue store cannot
 * subscribe (Redis down): the stream then carries durable events only.
 */
export async function openLiveDeltaFeed(
  queue: QueueStore,
  jobId: string,
  onDelta: (delta: LiveDelta) => void,
): Promise<() => Promise<void>> {
  let early: LiveDelta[] | undefined = [];
  const seen = new Seen();
  const forward = (delta: LiveDelta) => {
    const sent = seen.admit(delta);
    if (sent) onDelta(sent);
  };
  const unsubscribe = await queue.subscribe(jobDeltasChannel(jobId), (message) => {
    const parsed = liveDeltaBatch.safeParse(parseJson(message));
    if (!parsed.success) return;
    if (early) early.push(...parsed.data);
    else for (const delta of parsed.data) forward(delta);
  });
  try {
    // Every stream of the job opening now reads the same buffers: one read for all of them (db/shared-reads.ts).
    const group = jobDeltaBuffers(jobId);
    const buffers = await sharedRead(queue, `bounded:${group}`, () => queue.readBounded(group));
    for (const entries of buffers) {
      for (const entry of entries) {
        const parsed = liveDelta.safeParse(parseJson(entry));
        if (parsed.success) forward(parsed.data);
      }
    }
  } catch {
    // No replay (the buffers could not be read): the stream goes on with the live deltas.
  }
  const pending = early;
  early = undefined;
  for (const delta of pending) forward(delta);
  return unsubscribe;
}

/**
 * How much of each part of each attempt a stream has sent, so a delta the buffer and the channel both carried goes
 * out once, and a delta overlapping what was sent goes out trimmed. A `discard` or `end` forgets the call.
 */
class Seen {
  private readonly sent = new Map<string, number>();

  admit(delta: LiveDelta): LiveDelta | undefined {
    if (delta.kind === 'discard' || delta.kind === 'end') {
      const prefix = `${delta.call_id}\n`;
      for (const key of this.sent.keys()) if (key.startsWith(prefix)) this.sent.delete(key);
      return delta;
    }
    const key = `${delta.call_id}\n${delta.attempt}\n${delta.kind}\n${delta.tool_call_index ?? 0}`;
    const have = this.sent.get(key);
    const end = delta.offset + delta.text.length;
    if (have !== undefined && end <= have) return undefined;
    this.sent.set(key, end);
    if (have === undefined || delta.offset >= have) return delta;
    const skip = have - delta.offset;
    return { ...delta, offset: have, text: delta.text.slice(skip) };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

import type { LiveDelta } from './live-deltas';

/** One message of a job's event stream: a durable event (with its sequence as `id`) or a delta (`event: delta`). */
export interface SseFrame {
  id?: string;
  event?: string;
  data: unknown;
}

/**
 * Deltas waiting for a slow client beyond this many are dropped: deltas are the animation, the durable events are
 * the truth, and one stalled reader must not hold a job's whole output in the API's memory.
 */
const MAX_WAITING_DELTAS = 5_000;

/**
 * The durable frames with the job's live deltas between them, as `event: delta` frames with no `id:` (so an
 * EventSource's Last-Event-ID keeps naming the last durable sequence). Ends when the durable frames end. When the
 * delta feed cannot be opened (the queue store is down) the stream carries the durable frames alone.
 */
export async function* withLiveDeltas(
  durable: AsyncGenerator<SseFrame>,
  open: (onDelta: (delta: LiveDelta) => void) => Promise<() => Promise<void>>,
): AsyncGenerator<SseFrame> {
  const waiting: SseFrame[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const opened = open((delta) => {
    if (ended || waiting.length >= MAX_WAITING_DELTAS) return;
    waiting.push({ event: 'delta', data: delta });
    wake?.();
  }).catch(() => async () => undefined);
  type Next = { result: IteratorResult<SseFrame> };
  // One pending read of the durable frames at a time, raced against each wake-up by a delta.
  let next: Promise<Next> | undefined;
  try {
    for (;;) {
      while (waiting.length > 0) yield waiting.shift()!;
      next ??= durable.next().then((result) => ({ result }));
      const woke = new Promise<'delta'>((resolve) => {
        wake = () => resolve('delta');
        if (waiting.length > 0) resolve('delta');
      });
      const outcome = await Promise.race([next, woke]);
      wake = undefined;
      if (outcome === 'delta') continue;
      next = undefined;
      if (outcome.result.done) return;
      yield outcome.result.value;
    }
  } finally {
    ended = true;
    await (
      await opened
    )();
    if (!next) await durable.return(undefined);
  }
}

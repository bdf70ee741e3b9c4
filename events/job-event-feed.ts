import type { Pool } from 'pg';
import { listEventsAfter } from './store';
import { findJobShared, isTerminalStatus } from '../db/jobs';
import type { EventEnvelope } from './envelope';
import { isTerminalKind } from './kinds';
import type { QueueStore } from '../queue/queue-store';
import { subscribeLiveEvents } from './live-events';
import { sharedRead } from '../db/shared-reads';

/** The queue-store channel that carries a job's live events. */
export function jobEventsChannel(jobId: string): string {
  return `job:${jobId}:events`;
}

/** How long a terminal job may still be writing its terminal event. */
const TERMINAL_GRACE_MS = 30_000;

export interface FeedOptions {
  pool: Pool;
  queue: QueueStore;
  jobId: string;
  /** The last sequence the client has (Last-Event-ID); 0 for everything. */
  after: number;
  /** Re-read the database this often while idle, in case a live message was lost. */
  pollMs: number;
  signal: AbortSignal;
}

/**
 * How long an idle stream waits before it re-reads the database: until the next multiple of `pollMs` on the clock,
 * so the idle streams of a job in a process poll at the same moments and share each read (db/shared-reads.ts). Each
 * stream polling on a timer of its own from its own connect made thousands of idle streams (jobs waiting for a
 * person) one query each every `pollMs`. Never longer than `pollMs`.
 */
function untilNextPoll(pollMs: number): number {
  return pollMs - (Date.now() % pollMs);
}

/**
 * A job's events in sequence order, each exactly once: the stored backlog after `after`, then live
 * events as they are published. A live event that skips ahead is never sent early: the gap is read
 * from the database first, so clients see 1, 2, 3, … with no holes. Ends after `final` or `error`
 * (or when the job is terminal with nothing more stored), or when `signal` aborts.
 */
export async function* jobEventFeed(options: FeedOptions): AsyncGenerator<EventEnvelope> {
  const { pool, queue, jobId, signal } = options;
  let last = options.after;
  let live: EventEnvelope[] = [];
  let wake: (() => void) | undefined;
  const notify = () => wake?.();
  // Subscribe before reading the backlog so nothing published in between is missed. With the queue store (Redis)
  // down there is no live channel: the feed reads the stored backlog every `pollMs` instead, in the same order.
  const unsubscribe = await subscribeLiveEvents(queue, jobEventsChannel(jobId), (event) => {
    live.push(event);
    notify();
  }).catch(() => async () => undefined);
  signal.addEventListener('abort', notify);
  try {
    let readStored = true;
    while (!signal.aborted) {
      let sent = false;
      if (readStored) {
        for (const event of await storedAfter(last)) {
          if (event.sequence !== last + 1) break;
          last = event.sequence;
          sent = true;
          yield event;
          if (isTerminalKind(event.kind)) return;
        }
      }
      live = live.filter((e) => e.sequence > last).sort((a, b) => a.sequence - b.sequence);
      while (live[0]?.sequence === last + 1) {
        const event = live.shift()!;
        last = event.sequence;
        sent = true;
        yield event;
        if (isTerminalKind(event.kind)) return;
      }
      if (sent) {
        readStored = live.length > 0;
        continue;
      }
      // A live event ahead of `last` means a gap the database holds (sequences commit in order).
      if (live.length > 0 && (await hasStoredAfter(last))) {
        readStored = true;
        continue;
      }

      const timedOut = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), untilNextPoll(options.pollMs));
        wake = () => {
          clearTimeout(timer);
          resolve(false);
        };
        // A message that arrived before `wake` was set must not wait for the timer.
        if (signal.aborted || live.some((e) => e.sequence === last + 1)) wake();
      });
      wake = undefined;
      readStored = timedOut;
      if (timedOut && !(await hasStoredAfter(last))) {
        const job = await findJobShared(pool, jobId);
        // Terminal for a while with nothing left to send (e.g. terminated by an operator): end the stream.
        // The grace covers the moment between a job's terminal status and its terminal event.
        const settled = job?.finished_at && Date.now() - job.finished_at.getTime() > TERMINAL_GRACE_MS;
        if (!job || (isTerminalStatus(job.status) && settled)) return;
      }
    }
  } finally {
    signal.removeEventListener('abort', notify);
    await unsubscribe();
  }

  // Every stream of a job reads the same rows at the same moments (its backlog on connect, its poll), so streams at the
  // same point share each read (db/shared-reads.ts): the database sees one query per job, not one per stream.
  function storedAfter(sequence: number, limit?: number): Promise<EventEnvelope[]> {
    const key = `events:${jobId}:${sequence}:${limit ?? ''}`;
    return sharedRead(pool, key, () => listEventsAfter(pool, jobId, sequence, limit));
  }

  async function hasStoredAfter(sequence: number): Promise<boolean> {
    return (await storedAfter(sequence, 1)).length > 0;
  }
}

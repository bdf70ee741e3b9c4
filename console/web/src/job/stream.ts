import { createParser } from 'eventsource-parser';
import { useEffect, useMemo, useState } from 'react';
import { liveDelta } from '../../../../events/live-deltas';
import { ApiError, call } from '../api';
import { AgentEvent, Job } from '../schemas';
import { readEvent, type JobEvent } from './events';
import { createLiveStore, type LiveStore } from './live-store';

export const TERMINAL_KINDS = new Set(['final', 'error']);
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 10_000;
/** Events are handed to React at most this often: 2,000 events arriving at once render as a few dozen updates. */
const FLUSH_MS = 50;

type StreamState = Omit<JobStream, 'live'>;
const EMPTY: StreamState = { events: [], connected: false, finished: false, error: null, reconnects: 0 };

export interface JobStream {
  /** Ordered by sequence, each sequence once; typed by their kinds' contracts. */
  events: JobEvent[];
  connected: boolean;
  finished: boolean;
  /** A refusal that ends the stream (401, 403, 404). */
  error: ApiError | null;
  reconnects: number;
  /**
   * The live model output (`event: delta` frames, docs/live-output.md): kept apart from `events` (a delta is no event
   * and has no sequence) in a store each running level's view subscribes to, so deltas never re-render the page.
   */
  live: LiveStore;
}

/**
 * Follows `GET /api/v1/jobs/:id/stream` with fetch (so a refusal's status is visible, which EventSource hides) and
 * reconnects with `Last-Event-ID` = the highest sequence seen. Events are kept by sequence, so a replayed or
 * duplicated event is never shown twice, whatever the server sends.
 */
export function useJobStream(jobId: string): JobStream {
  const [state, setKeyed] = useState<StreamState & { jobId: string }>({ jobId, ...EMPTY });
  const live = useMemo(() => createLiveStore(jobId), [jobId]);

  useEffect(() => {
    const controller = new AbortController();
    const bySequence = new Map<number, JobEvent>();
    // Every update names its job, so a late one from the previous job's stream can never show on this one.
    const setState = (change: (s: StreamState) => StreamState) =>
      setKeyed((s) => ({ ...change(s.jobId === jobId ? s : EMPTY), jobId }));
    let lastSequence = 0;
    let finished = false;
    let pending = false;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let reconnects = 0;

    const flush = () => {
      flushTimer = undefined;
      if (!pending) return;
      pending = false;
      const events = [...bySequence.values()].sort((a, b) => a.sequence - b.sequence);
      setState((s) => ({ ...s, events, finished }));
    };
    const accept = (raw: string, name: string | undefined) => {
      let data: unknown;
      try {
        data = JSON.parse(raw);
      } catch {
        return;
      }
      // A delta has no `id:` and no sequence: it goes to the live store and never touches lastSequence, so a
      // reconnect's Last-Event-ID still names the last durable event; the store trims a replayed buffer by offset.
      if (name === 'delta') {
        const delta = liveDelta.safeParse(data);
        if (delta.success) live.push(delta.data);
        return;
      }
      const parsed = AgentEvent.safeParse(data);
      if (!parsed.success || bySequence.has(parsed.data.sequence)) return;
      const event = readEvent(parsed.data);
      bySequence.set(parsed.data.sequence, event);
      lastSequence = Math.max(lastSequence, parsed.data.sequence);
      // The level run's durable result replaces its live output (a payload that fails its contract names no level).
      const level = event.kind === 'level_finished' ? (event.payload as { level_id?: unknown }).level_id : undefined;
      if (typeof level === 'string') live.finish(level);
      if (TERMINAL_KINDS.has(parsed.data.kind)) {
        finished = true;
        live.clear();
      }
      pending = true;
      flushTimer ??= setTimeout(flush, FLUSH_MS);
    };

    const connect = async (): Promise<void> => {
      let delay = RETRY_MIN_MS;
      while (!controller.signal.aborted && !finished) {
        try {
          const res = await fetch(`/api/v1/jobs/${encodeURIComponent(jobId)}/stream`, {
            headers: {
              accept: 'text/event-stream',
              ...(lastSequence > 0 ? { 'last-event-id': String(lastSequence) } : {}),
            },
            credentials: 'same-origin',
            signal: controller.signal,
          });
          if (res.status === 401 || res.status === 403 || res.status === 404) {
            const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
            setState((s) => ({
              ...s,
              connected: false,
              error: new ApiError(res.status, body?.error?.code ?? `http_${res.status}`, body?.error?.message ?? ''),
            }));
            return;
          }
          if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
          setState((s) => ({ ...s, connected: true, reconnects }));
          delay = RETRY_MIN_MS;
          const parser = createParser({ onEvent: (event) => accept(event.data, event.event) });
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          const before = lastSequence;
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parser.feed(value);
          }
          // The server closed the stream with nothing new and no terminal event: a job that ended without one (a
          // cancel recorded before the worker ran) has nothing more to send, so ask the job instead of reconnecting.
          if (!finished && lastSequence === before && (await jobEnded(jobId, controller.signal))) finished = true;
        } catch (err) {
          if (controller.signal.aborted) return;
          void err;
        }
        flush();
        setState((s) => ({ ...s, connected: false, finished }));
        if (finished || controller.signal.aborted) break;
        reconnects += 1;
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
      flush();
    };

    void connect();
    return () => {
      controller.abort();
      clearTimeout(flushTimer);
      live.close();
    };
  }, [jobId, live]);

  return { ...(state.jobId === jobId ? state : EMPTY), live };
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

async function jobEnded(jobId: string, signal: AbortSignal): Promise<boolean> {
  const job = await call(`/api/v1/jobs/${encodeURIComponent(jobId)}`, Job, { signal }).catch(() => null);
  return job !== null && ENDED.has(job.status);
}

import { createParser } from 'eventsource-parser';
import { useEffect, useState } from 'react';
import { ApiError, call } from '../api';
import { AgentEvent, Job } from '../schemas';

export const TERMINAL_KINDS = new Set(['final', 'error']);
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 10_000;
/** Events are handed to React at most this often: 2,000 events arriving at once render as a few dozen updates. */
const FLUSH_MS = 50;

const EMPTY: JobStream = { events: [], connected: false, finished: false, error: null, reconnects: 0 };

export interface JobStream {
  /** Ordered by sequence, each sequence once. */
  events: AgentEvent[];
  connected: boolean;
  finished: boolean;
  /** A refusal that ends the stream (401, 403, 404). */
  error: ApiError | null;
  reconnects: number;
}

/**
 * Follows `GET /api/v1/jobs/:id/stream` with fetch (so a refusal's status is visible, which EventSource hides) and
 * reconnects with `Last-Event-ID` = the highest sequence seen. Events are kept by sequence, so a replayed or
 * duplicated event is never shown twice, whatever the server sends.
 */
export function useJobStream(jobId: string): JobStream {
  const [state, setKeyed] = useState<JobStream & { jobId: string }>({ jobId, ...EMPTY });

  useEffect(() => {
    const controller = new AbortController();
    const bySequence = new Map<number, AgentEvent>();
    // Every update names its job, so a late one from the previous job's stream can never show on this one.
    const setState = (change: (s: JobStream) => JobStream) =>
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
    const accept = (raw: string) => {
      let data: unknown;
      try {
        data = JSON.parse(raw);
      } catch {
        return;
      }
      const parsed = AgentEvent.safeParse(data);
      if (!parsed.success || bySequence.has(parsed.data.sequence)) return;
      bySequence.set(parsed.data.sequence, parsed.data);
      lastSequence = Math.max(lastSequence, parsed.data.sequence);
      if (TERMINAL_KINDS.has(parsed.data.kind)) finished = true;
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
          const parser = createParser({ onEvent: (event) => accept(event.data) });
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
    };
  }, [jobId]);

  return state.jobId === jobId ? state : EMPTY;
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

async function jobEnded(jobId: string, signal: AbortSignal): Promise<boolean> {
  const job = await call(`/api/v1/jobs/${encodeURIComponent(jobId)}`, Job, { signal }).catch(() => null);
  return job !== null && ENDED.has(job.status);
}

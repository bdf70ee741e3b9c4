import type { EventEmitter } from 'node:events';

/**
 * The `#slow` delay of the demo model's server: each delayed reply waits on its own abort signal, which ends the
 * wait early when the client disconnects or the server closes, so neither a cancelled request nor `close()`
 * waits out a delay and no timer outlives its request.
 */

/** Waits `ms`, settling early (resolved or rejected) once `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** Why a delay ended: it ran its course, the client went away, or the server is closing. */
export type DelayOutcome = 'elapsed' | 'disconnected' | 'closing';

/** The part of a raw HTTP response the delay watches: `close` before it finished means the client went away. */
export interface WatchedResponse extends Pick<EventEmitter, 'once' | 'off'> {
  readonly writableFinished: boolean;
}

export interface ReplyDelays {
  /** Waits `ms` before `response` is answered. */
  wait(ms: number, response: WatchedResponse): Promise<DelayOutcome>;
  /** Ends every pending wait, and any started later, with `closing`. */
  closeAll(): void;
}

/** The default `Sleep`: a timer that is cleared when the signal aborts. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export function createReplyDelays(sleep: Sleep = abortableSleep): ReplyDelays {
  const pending = new Set<AbortController>();
  let closing = false;

  return {
    async wait(ms, response) {
      const controller = new AbortController();
      const onClose = (): void => {
        if (!response.writableFinished) controller.abort('disconnected' satisfies DelayOutcome);
      };
      response.once('close', onClose);
      pending.add(controller);
      if (closing) controller.abort('closing' satisfies DelayOutcome);
      try {
        // The race makes an early end the server's guarantee, whatever the sleep does with the signal.
        await Promise.race([sleep(ms, controller.signal).catch(() => undefined), aborted(controller.signal)]);
      } finally {
        pending.delete(controller);
        response.off('close', onClose);
      }
      return controller.signal.aborted ? (controller.signal.reason as DelayOutcome) : 'elapsed';
    },
    closeAll() {
      closing = true;
      for (const controller of pending) controller.abort('closing' satisfies DelayOutcome);
    },
  };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

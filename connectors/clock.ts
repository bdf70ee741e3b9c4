import { setTimeout as delay } from 'node:timers/promises';

/** Time as the limiter and the retries see it; tests inject one whose sleep advances it instantly. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    if (ms > 0) await delay(ms, undefined, signal ? { signal } : undefined);
  },
};

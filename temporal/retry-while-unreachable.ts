import { isTemporalUnavailable } from './temporal-call';

export interface StartupRetryOptions {
  /** How long the call may keep failing as unreachable before its error is thrown; default 60 s. */
  budgetMs?: number;
  /** Told of each retry, so a slow start says why it waits. */
  say?: (line: string) => void;
  /** The wait between tries (a test passes its own). */
  sleep?: (ms: number) => Promise<void>;
}

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 4_000;

/**
 * Runs a start-up call to Temporal again while the server does not answer it (UNAVAILABLE or DEADLINE_EXCEEDED, the
 * error or a cause of it), with a doubling delay, until `budgetMs` has passed; any other error is thrown at once.
 *
 * Why: a dev server restarted on its data directory answers its frontend before its internal scheduler has loaded the
 * schedules it holds, and `DescribeSchedule` (which a schedule's update reads first) then fails with "context deadline
 * exceeded". That stopped `npm start` outright (CI of stop 40); the schedule is answerable moments later.
 */
export async function retryWhileUnreachable<T>(
  what: string,
  call: () => Promise<T>,
  {
    budgetMs = 60_000,
    say,
    sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }: StartupRetryOptions = {},
): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let delay = FIRST_DELAY_MS; ; delay = Math.min(delay * 2, MAX_DELAY_MS)) {
    try {
      return await call();
    } catch (err) {
      if (!isTemporalUnavailable(err) || Date.now() + delay > deadline) throw err;
      say?.(`Temporal did not answer ${what} (${(err as Error).message}); trying again in ${delay} ms`);
      await sleep(delay);
    }
  }
}

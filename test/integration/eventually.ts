export interface EventuallyOptions {
  /** What is waited for, in words: the failure says it ("timed out after 60000 ms waiting for <what>"). */
  what: string;
  /** How long to wait before failing. Generous by default: a test waits for a fact, and a loaded machine is slow. */
  timeoutMs?: number;
  /** How often to look again. */
  intervalMs?: number;
}

/**
 * Looks again and again until `check` answers a value (anything but `undefined` or `false`) and resolves with it, or
 * fails once `timeoutMs` has passed, saying what it waited for and the last error `check` threw, if any. The one
 * polling helper of the suite: every wait has a deadline and a name.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { what, timeoutMs = 60_000, intervalMs = 50 }: EventuallyOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause =
        lastError === undefined
          ? ''
          : ` (last error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

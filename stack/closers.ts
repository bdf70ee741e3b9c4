/**
 * What a process opened, closed in reverse order of opening: on shutdown, and on a start that fails half-way (so a
 * failed start leaves nothing running).
 */
export function createClosers(log: (line: string) => void = (line) => console.error(line)) {
  const closers: Array<() => Promise<unknown>> = [];
  let closed: Promise<void> | undefined;
  return {
    /** Registers `close` and hands back `resource`, so opening and registering read as one step. */
    add<T>(resource: T, close: (resource: T) => Promise<unknown>): T {
      closers.push(() => close(resource));
      return resource;
    },
    push(close: () => Promise<unknown>): void {
      closers.push(close);
    },
    /** Idempotent: a second Ctrl-C does not close twice. */
    close(): Promise<void> {
      closed ??= (async () => {
        for (const close of closers.reverse()) await close().catch((err: unknown) => log(String(err)));
      })();
      return closed;
    },
  };
}

/** Runs `open` with a fresh set of closers; when it throws, whatever it had opened is closed before rethrowing. */
export async function openAll<T>(
  open: (closers: ReturnType<typeof createClosers>) => Promise<T>,
): Promise<T & { close(): Promise<void> }> {
  const closers = createClosers();
  try {
    const opened = await open(closers);
    return { ...opened, close: () => closers.close() };
  } catch (err) {
    await closers.close();
    throw err;
  }
}

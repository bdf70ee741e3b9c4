// What every process's entry point shares: how it serves until a signal, and how a failed start ends it.

/**
 * Starts the process's app on `resources` and serves until SIGINT or SIGTERM, then closes the app before the
 * resources it runs on. A start that fails closes the resources before the error reaches `runMain`.
 */
export async function serveUntilSignal<R extends { close(): Promise<void> }>(
  resources: R,
  start: (resources: R) => Promise<{ close(): Promise<unknown> }>,
): Promise<void> {
  try {
    const app = await start(resources);
    const shutdown = async () => {
      await app.close();
      await resources.close();
    };
    process.once('SIGINT', () => void shutdown());
    process.once('SIGTERM', () => void shutdown());
  } catch (err) {
    await resources.close();
    throw err;
  }
}

/**
 * Runs an entry point's `main`. A failure, at start or later, is one line on stderr naming the process and every
 * cause (an operator or a supervisor's log reads it), and exit code 1, so a process that cannot run never lingers or
 * leaves quietly.
 */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(`${name} stopped: ${describeFailure(err)}`);
    process.exit(1);
  });
}

/** The error's message followed by each cause's that it does not already include. */
export function describeFailure(err: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = err; current !== undefined && parts.length < 10;) {
    const message = current instanceof Error ? current.message : JSON.stringify(current);
    if (!parts.some((part) => part.includes(message))) parts.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ');
}

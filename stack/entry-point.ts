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

/** Runs an entry point's `main`; a failure prints its message alone (an operator reads it) and exits 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

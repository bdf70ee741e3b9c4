// What every process's entry point shares: how it serves until a signal, and how a failed start ends it.

/** The signals that ask a Keel process to stop: Ctrl-C, a supervisor's or process manager's stop, the terminal closing. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * How close together two stop signals are one stop. The npm scripts `exec` node, so npm's forwarded signal reaches it
 * (a process manager signals npm's pid only); in a terminal Ctrl-C reaches npm and node both, and npm forwards its
 * copy: the same stop arrives twice, milliseconds apart.
 */
const SAME_STOP_MS = 500;

/**
 * Calls `stop` on the first stop signal. A later one (a person pressing Ctrl-C again while the stop waits) calls
 * `force`, which by default exits 1 at once; the echo of the first one within SAME_STOP_MS is not a second stop.
 */
export function onStopSignals(
  stop: (signal: NodeJS.Signals) => void,
  force: (signal: NodeJS.Signals) => void = () => process.exit(1),
): void {
  let firstAt: number | undefined;
  const handle = (signal: NodeJS.Signals) => {
    if (firstAt === undefined) {
      firstAt = performance.now();
      stop(signal);
    } else if (performance.now() - firstAt >= SAME_STOP_MS) {
      force(signal);
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handle);
}

/**
 * Starts the process's app on `resources` and serves until a stop signal, then closes the app before the
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
    onStopSignals(() => void shutdown());
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

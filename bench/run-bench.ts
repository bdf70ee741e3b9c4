/** What every benchmark's entry shares: clean-up that always runs, and one way to fail. */

/** Clean-up steps a benchmark registers as it opens resources, run newest first whatever happens after. */
export class Teardown {
  private readonly steps: Array<[string, () => Promise<unknown>]> = [];

  /** Registers `close` under the name a failure report uses. */
  push(name: string, close: () => Promise<unknown>): void {
    this.steps.push([name, close]);
  }

  /** Runs every step newest first; a failing step is reported and the rest still run. `guard` may bound a step. */
  async run(guard: (name: string, step: Promise<unknown>) => Promise<unknown> = (_name, step) => step): Promise<void> {
    for (const [name, close] of this.steps.reverse()) {
      await guard(name, close()).catch((err: unknown) => console.error(`teardown ${name}: ${(err as Error).message}`));
    }
  }
}

/**
 * Runs a benchmark's `main`. A failure is printed and ends the process with exit code 1: once its output is written and
 * its handles are closed, or after a second at most, so a connection the failure left open cannot keep it alive.
 */
export function runBench(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 1000).unref();
  });
}

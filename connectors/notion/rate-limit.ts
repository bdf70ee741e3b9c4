import type { Clock } from '../clock';

/**
 * A sliding-window limiter: at most `limit` starts in any `windowMs`. Starts are serialized, so concurrent callers
 * queue in arrival order. The clock is injected so a test can count starts per window without waiting.
 */
export class SlidingWindowLimiter {
  private readonly starts: number[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Resolves when the caller may start its request. */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.waitForSlot(signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      while (this.starts.length > 0 && this.starts[0]! <= now - this.windowMs) this.starts.shift();
      if (this.starts.length < this.limit) {
        this.starts.push(now);
        return;
      }
      await this.clock.sleep(this.starts[0]! + this.windowMs - now, signal);
    }
  }
}

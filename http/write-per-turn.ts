import type { ServerResponse } from 'node:http';

/**
 * Passes `frames` through, holding the response's writes back (cork) from a turn's first frame until the event loop's
 * next check phase (setImmediate), so every frame ready in one turn (a burst of live deltas, a replay) leaves in one
 * socket write instead of one each. A job stream with 100 calls streaming spent more of its CPU in `writev` than in
 * anything else (docs/performance.md); the wait it adds is the rest of the current turn, well under a millisecond.
 */
export async function* writePerTurn<T>(frames: AsyncIterable<T>, response: ServerResponse): AsyncGenerator<T> {
  let corked = false;
  const uncork = () => {
    corked = false;
    response.uncork();
  };
  for await (const frame of frames) {
    if (!corked) {
      corked = true;
      response.cork();
      setImmediate(uncork);
    }
    yield frame;
  }
}

import type { ServerResponse } from 'node:http';
import { writePerTurn } from './write-per-turn';

/** A response that records what happens to it, in order. */
function recordingResponse() {
  const log: string[] = [];
  let corks = 0;
  const response = {
    cork: () => {
      corks += 1;
      log.push('cork');
    },
    uncork: () => {
      corks -= 1;
      log.push('uncork');
    },
  };
  return { response: response as unknown as ServerResponse, log, corked: () => corks > 0 };
}

async function* frames(turns: string[][]): AsyncGenerator<string> {
  for (const [index, turn] of turns.entries()) {
    // A later turn's frames arrive after the event loop has moved on, as a delta from Redis does.
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    yield* turn;
  }
}

test('frames ready in one turn are written while the response is corked, and it is uncorked once per turn', async () => {
  const { response, log, corked } = recordingResponse();
  for await (const frame of writePerTurn(frames([['a', 'b', 'c'], ['d']]), response)) {
    expect(corked()).toBe(true);
    log.push(frame);
  }
  await new Promise((resolve) => setImmediate(resolve));
  expect(log).toEqual(['cork', 'a', 'b', 'c', 'uncork', 'cork', 'd', 'uncork']);
  expect(corked()).toBe(false);
});

test('stopping early (the client went away) ends the frames it wraps', async () => {
  const { response } = recordingResponse();
  let ended = false;
  async function* endless() {
    try {
      for (;;) yield 'x';
    } finally {
      ended = true;
    }
  }
  for await (const frame of writePerTurn(endless(), response)) if (frame === 'x') break;
  expect(ended).toBe(true);
});

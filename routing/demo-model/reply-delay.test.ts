import { EventEmitter } from 'node:events';
import { abortableSleep, createReplyDelays } from './reply-delay';
import type { Sleep, WatchedResponse } from './reply-delay';

/** A raw response stand-in that never finishes: emitting `close` on it is a client going away. */
class FakeResponse extends EventEmitter implements WatchedResponse {
  readonly writableFinished = false;
}

/** A sleep the test ends by hand; it ignores its signal, so any early end is the delays' own doing. */
function manualSleep(): { sleep: Sleep; calls: Array<{ ms: number; signal: AbortSignal; end: () => void }> } {
  const calls: Array<{ ms: number; signal: AbortSignal; end: () => void }> = [];
  const sleep: Sleep = (ms, signal) => new Promise((resolve) => calls.push({ ms, signal, end: resolve }));
  return { sleep, calls };
}

describe('abortableSleep', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('resolves after its time', async () => {
    const done = abortableSleep(3000, new AbortController().signal);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(3000);
    await expect(done).resolves.toBeUndefined();
  });

  it('resolves early and clears its timer when the signal aborts', async () => {
    const controller = new AbortController();
    const done = abortableSleep(60_000, controller.signal);
    controller.abort();
    await expect(done).resolves.toBeUndefined();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('starts no timer for a signal that already aborted', async () => {
    await abortableSleep(60_000, AbortSignal.abort());
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('createReplyDelays', () => {
  it('reports elapsed when the sleep ends, and passes its time on', async () => {
    const { sleep, calls } = manualSleep();
    const waiting = createReplyDelays(sleep).wait(1234, new FakeResponse());
    expect(calls.map((call) => call.ms)).toEqual([1234]);
    calls[0]?.end();
    await expect(waiting).resolves.toBe('elapsed');
  });

  it('ends the wait when the client disconnects, aborting the sleep signal', async () => {
    const { sleep, calls } = manualSleep();
    const response = new FakeResponse();
    const waiting = createReplyDelays(sleep).wait(60_000, response);
    response.emit('close');
    await expect(waiting).resolves.toBe('disconnected');
    expect(calls[0]?.signal.aborted).toBe(true);
    expect(response.listenerCount('close')).toBe(0);
  });

  it('ends pending and later waits with closing once closeAll is called', async () => {
    const { sleep, calls } = manualSleep();
    const delays = createReplyDelays(sleep);
    const pending = delays.wait(60_000, new FakeResponse());
    delays.closeAll();
    await expect(pending).resolves.toBe('closing');
    await expect(delays.wait(60_000, new FakeResponse())).resolves.toBe('closing');
    expect(calls.every((call) => call.signal.aborted)).toBe(true);
  });

  it('treats a sleep that rejects on abort like one that resolves', async () => {
    const response = new FakeResponse();
    const rejecting: Sleep = (_ms, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const waiting = createReplyDelays(rejecting).wait(60_000, response);
    response.emit('close');
    await expect(waiting).resolves.toBe('disconnected');
  });

  it('clears the default timer when the client disconnects', async () => {
    jest.useFakeTimers();
    try {
      const response = new FakeResponse();
      const waiting = createReplyDelays().wait(60_000, response);
      expect(jest.getTimerCount()).toBe(1);
      response.emit('close');
      await expect(waiting).resolves.toBe('disconnected');
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

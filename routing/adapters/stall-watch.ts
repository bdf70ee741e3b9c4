import type { Wire } from '../catalog/types';
import { classifyThrown } from './classify';
import { ProviderCallError, type AdapterRequest } from './types';

/**
 * How long a streamed call may send nothing before it fails as unavailable, unless the worker's
 * `KEEL_STREAM_STALL_MS` says otherwise. Generous, because a reasoning model may think a long while before its first
 * token.
 */
export const STREAM_STALL_MS = 120_000;

/**
 * A stream that went silent past the limit: unavailable, as for a 5xx, but the walk names it apart (`stream_stalled`
 * on the level's `model_fallback`), because a stall is the vendor going quiet after its 200, not a refused request.
 */
export class StreamStalled extends ProviderCallError {
  override name = 'StreamStalled';
  constructor(message: string) {
    super(message, 'unavailable');
  }
}

export interface StallWatch {
  /** Aborts when the caller's signal does, or when nothing arrived for the limit. */
  signal: AbortSignal;
  /** Something arrived: the limit starts over. */
  touch(): void;
  readonly stalled: boolean;
  stop(): void;
}

/** Watches a stream for silence: the returned signal aborts the vendor call after `stallMs` without a `touch`. */
export function watchForStall(outer: AbortSignal | undefined, stallMs: number): StallWatch {
  const controller = new AbortController();
  let stalled = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      controller.abort(new Error(`stream stalled: nothing for ${stallMs} ms`));
    }, stallMs);
  };
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  arm();
  return {
    signal: controller.signal,
    touch: () => {
      if (!controller.signal.aborted) arm();
    },
    get stalled() {
      return stalled;
    },
    stop() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * What a streamed call throws when its stream failed: a stall (not the caller's own abort) is unavailable, anything
 * else is classified like an unstreamed call's failure. `err` is what the vendor client threw, already read for a
 * mid-stream error where the wire sends one.
 */
export function streamFailure(
  watch: StallWatch,
  err: unknown,
  context: { wire: Wire; request: AdapterRequest; stallMs: number },
): Error {
  const { wire, request, stallMs } = context;
  if (watch.stalled && !request.signal?.aborted) {
    return new StreamStalled(
      `${request.providerName}/${request.model.model} stream stalled: nothing for ${stallMs} ms`,
    );
  }
  return classifyThrown(err, {
    wire,
    providerName: request.providerName,
    model: request.model.model,
    signal: request.signal,
  }) as Error;
}

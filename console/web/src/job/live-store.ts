import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { LiveDelta } from '../../../../events/live-deltas';
import { applyDeltas, dropLevels, streamingLevels, type LevelLive, type LiveState } from './live-output';

/** Deltas are handed to React at most this often, as the stream does with events: hundreds a second render ~20×. */
const FLUSH_MS = 50;

/**
 * A job's live output outside React state: the stream pushes deltas in, and each level run's view subscribes to its
 * own slice, so a delta re-renders that run's live output only, never the job page, its timeline or its graph.
 */
export interface LiveStore {
  push(delta: LiveDelta): void;
  /** The level run ended (`level_finished`): its durable result replaces its live output, and later deltas are ignored. */
  finish(levelId: string): void;
  /** The job ended: nothing more streams. */
  clear(): void;
  subscribe(listener: () => void): () => void;
  get(): LiveState;
  /** Stops a pending flush (the stream reading it stopped); the store can be pushed to again. */
  close(): void;
}

/** The live output of job `jobId`: a delta of another job (a stream answered for the wrong one) is ignored. */
export function createLiveStore(jobId: string): LiveStore {
  let state: LiveState = new Map();
  let pending: LiveDelta[] = [];
  const finished = new Set<string>();
  const newlyFinished: string[] = [];
  const dropped = new Set<string>();
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    timer = undefined;
    const before = state;
    state = dropLevels(applyDeltas(state, pending, finished, dropped), newlyFinished.splice(0));
    pending = [];
    if (state !== before) for (const listener of listeners) listener();
  };
  const schedule = () => {
    timer ??= setTimeout(flush, FLUSH_MS);
  };

  return {
    push(delta) {
      if (delta.job_id !== jobId || finished.has(delta.level_id)) return;
      pending.push(delta);
      schedule();
    },
    finish(levelId) {
      if (finished.has(levelId)) return;
      finished.add(levelId);
      newlyFinished.push(levelId);
      schedule();
    },
    clear() {
      pending = [];
      newlyFinished.push(...state.keys());
      for (const id of state.keys()) finished.add(id);
      schedule();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => state,
    close() {
      clearTimeout(timer);
      timer = undefined;
      pending = [];
    },
  };
}

/** One level run's live output, re-rendering only when that run's output changes. */
export function useLevelLive(store: LiveStore | undefined, levelId: string): LevelLive | undefined {
  // Stable callbacks: a new subscribe function each render would unsubscribe and subscribe again every render.
  const subscribe = useCallback((listener: () => void) => store?.subscribe(listener) ?? (() => undefined), [store]);
  const snapshot = useCallback(() => store?.get().get(levelId), [store, levelId]);
  return useSyncExternalStore(subscribe, snapshot);
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The level runs streaming now. Re-renders only when that set changes, not with each delta: the snapshot is the ids
 * as one string, which React compares by value.
 */
export function useStreamingLevels(store: LiveStore | undefined): ReadonlySet<string> {
  const subscribe = useCallback((listener: () => void) => store?.subscribe(listener) ?? (() => undefined), [store]);
  const snapshot = useCallback(() => (store ? streamingLevels(store.get()).join('\n') : ''), [store]);
  const ids = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => (ids === '' ? NONE : new Set(ids.split('\n'))), [ids]);
}

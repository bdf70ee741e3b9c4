import type { OutputPiece } from './adapters/types';

/**
 * One try of a model call (one candidate of the walk): where its streamed pieces go. events/live-output.ts publishes
 * them on the job's live channel; the interface lives here so the walk needs nothing of events/.
 */
export interface LiveAttempt {
  piece(piece: OutputPiece): void;
  /** The attempt failed: clients drop what it streamed. */
  discard(): void;
  /** The attempt answered: the call is over, its durable events follow. */
  end(): void;
}

/** A model call's live output: each candidate the walk calls begins an attempt. */
export interface LiveCall {
  begin(candidate: { provider: string; model: string }): LiveAttempt;
  /** Settles once everything published so far has reached the queue store (or failed to). */
  settled(): Promise<void>;
}

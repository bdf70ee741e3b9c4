import { z } from 'zod';
import { liveDelta } from '../clients/live-delta';

/**
 * Live model output: the deltas (text, reasoning, tool-call arguments) a model call streams while it runs. They travel
 * on a job's live channel beside its durable events and are never stored as events nor written to Temporal history:
 * the durable events (`tool_call`, `file_created`, `level_finished`, …) stay the truth, and a client that misses
 * deltas loses only the animation (docs/live-output.md).
 */

// The delta's wire contract is the clients' (a client reads it without server code); the server builds on it.
export { LIVE_DELTA_KINDS, liveDelta, type LiveDelta, type LiveDeltaKind } from '../clients/live-delta';

/** One message on a job's delta channel: the deltas of one flush, in order. */
export const liveDeltaBatch = z.array(liveDelta);

/** The queue-store channel that carries a job's deltas (beside `job:<id>:events`, which carries its envelopes). */
export function jobDeltasChannel(jobId: string): string {
  return `job:${jobId}:deltas`;
}

/** The queue-store group holding one bounded buffer per call in progress of the job (for clients that join late). */
export function jobDeltaBuffers(jobId: string): string {
  return `job:${jobId}:live`;
}

/**
 * The job a level run belongs to: every level-run workflow id starts with `<job_id>/` (workflows/definitions.ts
 * `levelWorkflowId`, the acquisition units' and product steps' ids), and job ids (`job-<uuid>`) have no slash.
 */
export function jobOfLevel(levelId: string): string {
  const slash = levelId.indexOf('/');
  return slash > 0 ? levelId.slice(0, slash) : levelId;
}

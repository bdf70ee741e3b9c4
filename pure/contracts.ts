/**
 * What activities and workflows both name: the failure types an activity throws and a workflow tells apart, and the
 * shapes an activity hands a workflow. They live here, below both, so activities never import workflows/ (a folder
 * cycle: workflows import activities' types to proxy them). workflows/definitions.ts re-exports them for workflow code.
 */

/** An activity found no row for the job yet (its submission has not committed); retried until it has. */
export const JOB_NOT_RECORDED = 'JobNotRecorded';
/** An event draft its kind's payload contract refuses: a bug in the emitter, so not retried. */
export const INVALID_EVENT = 'InvalidEvent';

/** One unit of a capability roadmap's plan, as `loadRoadmapPlan` reads it and the roadmap workflow runs it. */
export interface UnitSpec {
  position: number;
  key: string;
  kind: string;
  title: string;
  artifact: string;
}

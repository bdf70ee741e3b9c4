import { defineSignal } from '@temporalio/workflow';

/**
 * Temporal messages of product builds. Definitions only: the API sends them and the workflows handle them, so both
 * sides import the names from here.
 */

/** A person completed a human task (`POST /v1/human-tasks/:id/complete`); sent to the workflow waiting on it. */
export interface HumanTaskCompletion {
  task_id: string;
  completed_by: string;
  /** Already redacted by the API: it lands in the next level's context. */
  note?: string;
}

export const humanTaskCompletedSignal = defineSignal<[HumanTaskCompletion]>('humanTaskCompleted');

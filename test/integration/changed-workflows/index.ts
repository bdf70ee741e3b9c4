/*
 * The deploy drill's "new release" (test/integration/deploy-drill.test.ts): today's workflows with the job workflow
 * changed in a way no job started on today's code can replay, a timer before its first command, standing for any
 * unversioned change a deploy may carry. Test-only: nothing outside the drill bundles this entry.
 */
import { sleep } from '@temporalio/workflow';
import { runJob as runJobAsReleased } from '../../../workflows/job';
import type { JobInput, JobResult } from '../../../workflows/definitions';

export * from '../../../workflows';

/** The job workflow of the changed release: a 1 ms timer, then the job as today. */
export async function runJob(input: JobInput): Promise<JobResult> {
  await sleep(1);
  return runJobAsReleased(input);
}

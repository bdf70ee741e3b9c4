import { ApplicationFailure } from '@temporalio/activity';
import { ConfigFileError } from '../config/config-file';
import { loadScenario as readScenario } from '../scenarios/load';
import type { Scenario } from '../scenarios/types';

export function scenarioActivities() {
  return {
    /**
     * Reads and validates a scenario file. The job keeps what this returned (it is in the workflow's
     * history), so editing a file never changes a running job. A missing or invalid scenario fails the job.
     */
    async loadScenario(input: { name: string }): Promise<Scenario> {
      try {
        return await readScenario(input.name);
      } catch (err) {
        if (err instanceof ConfigFileError) {
          // The failure type jobs have always reported for a missing or invalid scenario.
          throw ApplicationFailure.create({ type: 'ScenarioError', message: err.publicMessage(), nonRetryable: true });
        }
        throw err;
      }
    },
  };
}

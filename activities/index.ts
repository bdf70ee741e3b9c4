import type { Pool } from 'pg';
import type { QueueStore } from '../queue/queue-store';
import type { ModelRouter } from '../routing/router';
import { approvalActivities } from './approvals';
import { eventActivities } from './events';
import { jobActivities } from './jobs';
import { modelActivities } from './models';
import { scenarioActivities } from './scenarios';
import { workspaceActivities } from './workspace';

export interface ActivityDeps {
  pool: Pool;
  queue: QueueStore;
  models: ModelRouter;
  /** Per-job workspaces live under this directory (DATA_DIR/workspaces by default). */
  workspaceRoot: string;
}

/** Every activity Keel's workflows call, built over their dependencies (workflows proxy the type only). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...eventActivities(deps),
    ...approvalActivities(deps),
    ...scenarioActivities(),
    ...jobActivities(deps),
    ...modelActivities(deps),
    ...workspaceActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;

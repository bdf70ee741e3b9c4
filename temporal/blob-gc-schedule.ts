import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleSpec } from '@temporalio/client';
import { KEEL_KIND } from '../pure/search-attributes';
import type { BlobGcSettings } from '../snapshots/config';
import type { collectWorkspaceBlobs } from '../workflows/collect-blobs';
import { retryWhileUnreachable, type StartupRetryOptions } from './retry-while-unreachable';

/** The schedule an operator finds in the Temporal UI; its runs get ids `keel-workspace-gc-<start time>`. */
export const BLOB_GC_SCHEDULE_ID = 'keel-workspace-gc';

function definition(settings: BlobGcSettings, taskQueue: string) {
  const spec: ScheduleSpec = { cronExpressions: [settings.cron] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: 'collectWorkspaceBlobs',
    args: [{ retentionHours: settings.retentionHours }] as Parameters<typeof collectWorkspaceBlobs>,
    taskQueue,
    typedSearchAttributes: [{ key: KEEL_KIND, value: 'maintenance' }],
    staticSummary: `workspace blob collection (retention ${settings.retentionHours} h)`,
    workflowId: BLOB_GC_SCHEDULE_ID,
  };
  // Skip, not buffer: a collection that outlasts its interval makes the next one pointless.
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' } as const;
  return { spec, action, policies };
}

/**
 * Creates or updates the blob collection's schedule from configuration (at worker start), like the connectors'
 * (temporal/connector-schedules.ts): its cron and retention, overlap skip, paused when WORKSPACE_GC_ENABLED=false.
 * Idempotent; several workers starting at once converge on the same schedule.
 */
export async function ensureBlobGcSchedule(
  client: Client,
  options: { taskQueue: string; settings: BlobGcSettings; retry?: StartupRetryOptions },
): Promise<{ scheduleId: string; paused: boolean }> {
  const { spec, action, policies } = definition(options.settings, options.taskQueue);
  const paused = !options.settings.enabled;
  const note = paused ? 'disabled: set WORKSPACE_GC_ENABLED=true' : 'enabled by configuration';
  // Retried while Temporal does not answer: a restarted dev server describes its schedules only moments after it starts.
  await retryWhileUnreachable(
    `the schedule ${BLOB_GC_SCHEDULE_ID}`,
    async () => {
      try {
        await client.schedule.create({
          scheduleId: BLOB_GC_SCHEDULE_ID,
          spec,
          action,
          policies,
          state: { paused, note },
        });
      } catch (err) {
        if (!(err instanceof ScheduleAlreadyRunning)) throw err;
        const handle = client.schedule.getHandle(BLOB_GC_SCHEDULE_ID);
        await handle.update((previous) => ({
          ...previous,
          spec,
          action,
          policies,
          state: { ...previous.state, paused, note },
        }));
        const described = await handle.describe();
        if (described.state.paused && !paused) await handle.unpause(note);
        if (!described.state.paused && paused) await handle.pause(note);
      }
    },
    options.retry,
  );
  return { scheduleId: BLOB_GC_SCHEDULE_ID, paused };
}

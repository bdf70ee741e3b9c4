import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleSpec,
} from '@temporalio/client';
import { CONNECTOR_NAMES, scheduleSettings, type ConnectorsEnv } from '../connectors/config';
import type { ConnectorName } from '../connectors/contract';
import { KEEL_KIND } from '../pure/search-attributes';
import type { runConnector } from '../workflows/connector-run';
import { retryWhileUnreachable, type StartupRetryOptions } from './retry-while-unreachable';

/** A schedule id an operator reads in the Temporal UI. Its runs get ids `keel-connector-<name>-<start time>`. */
export function connectorScheduleId(name: ConnectorName): string {
  return `keel-connector-${name}`;
}

export interface ConnectorScheduleState {
  connector: ConnectorName;
  scheduleId: string;
  cron: string;
  paused: boolean;
}

function definition(name: ConnectorName, cron: string, taskQueue: string) {
  const spec: ScheduleSpec = { cronExpressions: [cron] };
  const action: ScheduleOptionsStartWorkflowAction<typeof runConnector> = {
    type: 'startWorkflow',
    workflowType: 'runConnector',
    args: [{ connector: name }],
    taskQueue,
    typedSearchAttributes: [{ key: KEEL_KIND, value: 'connector' }],
    staticSummary: `${name} connector run`,
    workflowId: connectorScheduleId(name),
  };
  // Skip, not buffer: a run that outlasts its interval makes the next tick pointless (the cursor covers the gap).
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '10 minutes' } as const;
  return { spec, action, policies };
}

/**
 * Creates or updates one schedule per connector from configuration (at worker start): the cron, the workflow it
 * starts on `taskQueue`, overlap policy skip, and paused unless the connector is enabled (the default is disabled).
 * Idempotent; several workers starting at once converge on the same schedules. Retried while Temporal does not answer
 * (temporal/retry-while-unreachable.ts): a restarted dev server describes its schedules only moments after it starts.
 */
export async function ensureConnectorSchedules(
  client: Client,
  options: { taskQueue: string; config: ConnectorsEnv; retry?: StartupRetryOptions },
): Promise<ConnectorScheduleState[]> {
  const states: ConnectorScheduleState[] = [];
  for (const name of CONNECTOR_NAMES) {
    const { enabled, cron } = scheduleSettings(options.config, name);
    const scheduleId = connectorScheduleId(name);
    const { spec, action, policies } = definition(name, cron, options.taskQueue);
    const note = enabled ? `enabled by configuration` : `disabled: set CONNECTOR_${name.toUpperCase()}_ENABLED=true`;
    await retryWhileUnreachable(
      `the schedule ${scheduleId}`,
      async () => {
        try {
          await client.schedule.create({ scheduleId, spec, action, policies, state: { paused: !enabled, note } });
        } catch (err) {
          if (!(err instanceof ScheduleAlreadyRunning)) throw err;
          const handle = client.schedule.getHandle(scheduleId);
          await handle.update((previous) => ({
            ...previous,
            spec,
            action,
            policies,
            state: { ...previous.state, paused: !enabled, note },
          }));
          // Update carries the paused flag, but a pause is made explicit so the note shows who paused it and why.
          const described = await handle.describe();
          if (described.state.paused && enabled) await handle.unpause(note);
          if (!described.state.paused && !enabled) await handle.pause(note);
        }
      },
      options.retry,
    );
    states.push({ connector: name, scheduleId, cron, paused: !enabled });
  }
  return states;
}

export class ConnectorScheduleMissingError extends Error {
  override name = 'ConnectorScheduleMissingError';
}

/**
 * Starts a one-off run from the connector's schedule (its definition, also when paused), with overlap skip: while a
 * run is in progress no second one starts. Returns the id of the running workflow (the new one, or the one already
 * running), found among the schedule's running actions.
 */
export async function triggerConnectorRun(
  client: Client,
  name: ConnectorName,
  options: { waitForStartMs?: number } = {},
): Promise<{ workflowId: string; runId: string }> {
  const handle = client.schedule.getHandle(connectorScheduleId(name));
  let before: Set<string>;
  try {
    before = new Set((await handle.describe()).info.recentActions.map((a) => a.action.workflow.workflowId));
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) {
      throw new ConnectorScheduleMissingError(
        `no schedule ${connectorScheduleId(name)}: start a Keel worker (it creates the connector schedules) first`,
      );
    }
    throw err;
  }
  await handle.trigger(ScheduleOverlapPolicy.SKIP);
  const deadline = Date.now() + (options.waitForStartMs ?? 15_000);
  // The schedule starts the workflow asynchronously; it shows up among its actions within moments.
  while (Date.now() < deadline) {
    const { info } = await handle.describe();
    const actions = [...info.runningActions, ...info.recentActions.map((r) => r.action)];
    const started = actions.find((a) => !before.has(a.workflow.workflowId)) ?? info.runningActions[0];
    if (started) return { workflowId: started.workflow.workflowId, runId: started.workflow.firstExecutionRunId };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `the schedule ${connectorScheduleId(name)} did not start a run within ${options.waitForStartMs ?? 15_000} ms`,
  );
}

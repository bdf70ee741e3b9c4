import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ConnectorRunInput, ConnectorRunResult } from '../connectors/definitions';

// One activity does the whole run (clone, iterate, write, index): its cursor is stored as it goes, so a retry resumes
// where the failed attempt stopped. It heartbeats its progress (records, bytes), which the Temporal UI shows as the
// activity's heartbeat details; a worker that dies is noticed within the heartbeat timeout. Permanent failures (bad
// configuration, a stored cursor the connector refuses, an invalid record) are non-retryable from the activity.
const { syncConnector } = proxyActivities<Activities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '30 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 5 },
});

/** One connector run, started by the connector's schedule or by `keel connector trigger`. */
export async function runConnector(input: ConnectorRunInput): Promise<ConnectorRunResult> {
  return syncConnector(input);
}

/**
 * Worker versioning (docs/deployment.md, "Deploying workflow changes"): each worker polls as one version of a worker
 * deployment, named by its deployment and a build id derived from its workflow bundle, and every workflow it starts is
 * PINNED to that version, so a job that waits days on a person finishes on the code it started on while new jobs take
 * the deployment's current version.
 */
import { createHash } from 'node:crypto';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import type { google, temporal } from '@temporalio/proto';

type WorkflowService = temporal.api.workflowservice.v1.WorkflowService;

/** How a worker takes part in worker versioning: `off` polls unversioned (patches alone keep replay safe). */
export const WORKER_VERSIONING_MODES = ['off', 'pinned'] as const;
export type WorkerVersioningMode = (typeof WORKER_VERSIONING_MODES)[number];

export interface WorkerVersioning {
  deploymentName: string;
  /** Default: `bundleBuildId` of the bundle the worker runs. */
  buildId?: string;
  /**
   * Make this version the deployment's current one once the worker polls, unless a newer version already is
   * (`makeVersionCurrent`). Off when a deploy step does it (`temporal worker deployment set-current-version`).
   */
  promote: boolean;
}

/**
 * The build id of a workflow bundle: a hash of its bytes, so two workers share a version exactly when they run the same
 * workflow code, and any change to workflow code (or to what the bundle includes) is a new version.
 */
export function bundleBuildId(code: string | Buffer): string {
  return `keel-${createHash('sha256').update(code).digest('hex').slice(0, 16)}`;
}

export type PromotionOutcome =
  /** This worker's version was made current: new jobs start on it. */
  | 'made-current'
  | 'already-current'
  /** A version created after this one is current: this worker only finishes the jobs pinned to it (draining). */
  | 'newer-is-current';

export interface PromoteOptions {
  namespace: string;
  version: WorkerDeploymentVersion;
  identity?: string;
  /** How long to wait for the server to register the version (it does when the worker first polls). */
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Makes `version` its deployment's current version, so workflows started from now on are routed to it, unless a
 * version registered after it is current already: an older worker started again beside a newer one (to drain the jobs
 * pinned to it, or by a crash-restart mid-rollout) must never take new jobs back. A rollback to an older version is an
 * operator's explicit `temporal worker deployment set-current-version`. Retries until the server knows the version;
 * throws after `timeoutMs`.
 */
export async function makeVersionCurrent(service: WorkflowService, options: PromoteOptions): Promise<PromotionOutcome> {
  const { namespace, version } = options;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let lastError: unknown;
  for (;;) {
    try {
      const { workerDeploymentInfo: info, conflictToken } = await service.describeWorkerDeployment({
        namespace,
        deploymentName: version.deploymentName,
      });
      const summaries = info?.versionSummaries ?? [];
      const ours = summaries.find((s) => s.deploymentVersion?.buildId === version.buildId);
      if (ours) {
        const currentId = info?.routingConfig?.currentDeploymentVersion?.buildId;
        if (currentId === version.buildId) return 'already-current';
        const current = summaries.find((s) => s.deploymentVersion?.buildId === currentId);
        if (current && timestampMs(current.createTime) > timestampMs(ours.createTime)) return 'newer-is-current';
        await service.setWorkerDeploymentCurrentVersion({
          namespace,
          deploymentName: version.deploymentName,
          buildId: version.buildId,
          conflictToken,
          identity: options.identity,
        });
        return 'made-current';
      }
      lastError = new Error(`the server has not registered version ${version.buildId} yet`);
    } catch (err) {
      // NOT_FOUND before the deployment's first poll; a conflict when another worker changed the routing meanwhile
      // (the next describe sees the change).
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? lastError.message : String(lastError);
      throw new Error(
        `could not make ${version.deploymentName}/${version.buildId} the current version: ${reason}` +
          ' (set it with `temporal worker deployment set-current-version`, docs/deployment.md)',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
  }
}

function timestampMs(ts: google.protobuf.ITimestamp | null | undefined): number {
  return optionalTsToMs(ts) ?? 0;
}

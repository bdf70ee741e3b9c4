import fs from 'node:fs';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import { Resource } from '@opentelemetry/resources';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { activityLogContext } from '../activities/log-context';
import { addLogContext } from '../telemetry/logger';
import type { Tracing } from '../telemetry/tracing';
import { bundleBuildId, makeVersionCurrent, type PromotionOutcome, type WorkerVersioning } from './versioning';
import { defaultWorkflowBundlePath } from './workflow-code';

export interface KeelWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** The prebuilt workflow bundle; default `dist/workflow-bundle.js` under the project root (`npm run build`). */
  workflowBundlePath?: string;
  /**
   * Instead of a bundle file: a bundle already in memory (tests bundle once per file and share it), or `'source'` to
   * bundle workflows/ at start, which takes seconds per worker and is for development only.
   */
  workflowCode?: { code: string } | 'source';
  /** How long in-flight activities get to finish on shutdown before they are cancelled. */
  shutdownGraceTime?: string;
  /** The bundle's identity in Temporal's view; distinct per worker so operators can tell them apart. */
  identity?: string;
  /** The process's tracing (telemetry/tracing.ts); off when absent. */
  tracing?: Tracing;
  /** Poll as a version of a worker deployment, pinning the workflows it starts (temporal/versioning.ts); off when absent. */
  versioning?: WorkerVersioning;
}

/** The longest a heartbeat an activity reports waits before it goes to Temporal (see createKeelWorker). */
export const HEARTBEAT_THROTTLE = '800 milliseconds';

/** Creates a worker for Keel's job workflows and activities on one task queue. */
export async function createKeelWorker(options: KeelWorkerOptions): Promise<Worker> {
  const bundle = workflowOptions(options);
  const version = options.versioning && workerVersion(options.versioning, bundle);
  addLogContext(activityLogContext);
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps),
    shutdownGraceTime: (options.shutdownGraceTime ?? '10 seconds') as '10 seconds',
    // A cancel reaches a running activity only in the answer to one of its heartbeats, and the SDK sends them at most
    // once per 0.8 × heartbeat timeout (16 s for callModel): a cancelled job's model stream kept billing tokens that
    // long. Sent at most this often, a cancel aborts the vendor's stream within about a second (docs/live-output.md).
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
    ...(options.identity ? { identity: options.identity } : {}),
    ...bundle,
    ...tracingOptions(options.tracing),
    ...(version
      ? {
          // PINNED: a job, and the levels it starts as children on this queue, run on this version to their end, so
          // a paused job never replays on newer code; the price is keeping this version's workers until it drains.
          workerDeploymentOptions: { useWorkerVersioning: true, version, defaultVersioningBehavior: 'PINNED' },
        }
      : {}),
  });
}

/** The worker's deployment version: the configured build id, else the hash of the bundle it runs. */
export function workerVersion(
  versioning: WorkerVersioning,
  bundle: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>,
): WorkerDeploymentVersion {
  const buildId = versioning.buildId ?? bundleBuildIdOf(bundle);
  return { deploymentName: versioning.deploymentName, buildId };
}

function bundleBuildIdOf(bundle: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>): string {
  const workflowBundle = bundle.workflowBundle;
  if (workflowBundle && 'code' in workflowBundle) return bundleBuildId(workflowBundle.code);
  if (workflowBundle && 'codePath' in workflowBundle) return bundleBuildId(fs.readFileSync(workflowBundle.codePath));
  // Bundled at start from source: webpack's output is not ours to hash before Worker.create, so the operator names it.
  throw new Error('a versioned worker bundling workflows from source needs KEEL_WORKER_BUILD_ID');
}

/**
 * Activity spans (children of the workflow span that scheduled them) when tracing is on. The workflow bundle always
 * carries the tracing interceptors, so its span sink is always installed; with tracing off it drops the spans.
 */
function tracingOptions(tracing: Tracing | undefined): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  return {
    sinks: workflowTracingSinks(tracing),
    ...(tracing?.enabled
      ? {
          interceptors: {
            activity: [
              (ctx) => ({
                inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
                outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
              }),
            ],
          },
        }
      : {}),
  };
}

/** The sink workflow spans leave the sandbox through (replay workers need it too). */
export function workflowTracingSinks(tracing: Tracing | undefined): NonNullable<WorkerOptions['sinks']> {
  const off = { spanProcessor: new NoopSpanProcessor(), resource: new Resource({}) };
  const { spanProcessor, resource } = tracing ?? off;
  return { exporter: makeWorkflowExporter(spanProcessor, resource) };
}

/**
 * The worker's workflow code: the in-memory bundle or source when asked for, else the prebuilt bundle file. A missing
 * file stops the worker with how to build it, never a silent bundle from source.
 */
export function workflowOptions(
  options: Pick<KeelWorkerOptions, 'workflowBundlePath' | 'workflowCode'>,
): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  if (options.workflowCode === 'source') return { workflowsPath: require.resolve('../workflows') };
  if (options.workflowCode !== undefined) return { workflowBundle: { code: options.workflowCode.code } };
  const codePath = options.workflowBundlePath ?? defaultWorkflowBundlePath();
  if (!fs.existsSync(codePath)) {
    throw new Error(
      `no workflow bundle at ${codePath}: workers run the prebuilt bundle; write it with \`npm run build\`` +
        (options.workflowBundlePath === undefined ? '' : ' (or correct WORKFLOW_BUNDLE_PATH)'),
    );
  }
  return { workflowBundle: { codePath } };
}

export interface RunningWorker {
  worker: Worker;
  /** The deployment version it polls as, when versioned. */
  version?: WorkerDeploymentVersion;
  /** What asking to make its version current gave, when versioned with `promote`. */
  promotion?: PromotionOutcome;
  /** Resolves when the worker has stopped; rejects if it crashed. */
  done: Promise<void>;
  /** Graceful shutdown: stop polling, let in-flight activities finish within the grace time. */
  stop(): Promise<void>;
}

/**
 * Creates and runs a worker until `stop()`. A versioned worker with `promote` resolves once its version is current (or
 * a newer one is), so whoever started it knows new jobs are routed; if that fails the worker is stopped and it throws.
 */
export async function startKeelWorker(options: KeelWorkerOptions): Promise<RunningWorker> {
  const worker = await createKeelWorker(options);
  const done = worker.run();
  const stop = async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await done;
  };
  const version = worker.options.workerDeploymentOptions?.version;
  let promotion: PromotionOutcome | undefined;
  if (version && options.versioning?.promote) {
    try {
      promotion = await Promise.race([
        makeVersionCurrent(options.connection.workflowService, {
          namespace: options.namespace,
          version,
          identity: worker.options.identity,
        }),
        // A worker that fails while waiting ends the wait with its own error.
        done.then(() => {
          throw new Error('the worker stopped before its version was made current');
        }),
      ]);
    } catch (err) {
      await stop().catch(() => undefined);
      throw err;
    }
  }
  return { worker, version, promotion, done, stop };
}

import fs from 'node:fs';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import { Resource } from '@opentelemetry/resources';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { activityLogContext } from '../activities/log-context';
import { addLogContext } from '../telemetry/logger';
import type { Tracing } from '../telemetry/tracing';
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
}

/** Creates a worker for Keel's job workflows and activities on one task queue. */
export async function createKeelWorker(options: KeelWorkerOptions): Promise<Worker> {
  const bundle = workflowOptions(options);
  addLogContext(activityLogContext);
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps),
    shutdownGraceTime: (options.shutdownGraceTime ?? '10 seconds') as '10 seconds',
    ...(options.identity ? { identity: options.identity } : {}),
    ...bundle,
    ...tracingOptions(options.tracing),
  });
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
  /** Resolves when the worker has stopped; rejects if it crashed. */
  done: Promise<void>;
  /** Graceful shutdown: stop polling, let in-flight activities finish within the grace time. */
  stop(): Promise<void>;
}

/** Creates and runs a worker until `stop()`. */
export async function startKeelWorker(options: KeelWorkerOptions): Promise<RunningWorker> {
  const worker = await createKeelWorker(options);
  const done = worker.run();
  return {
    worker,
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

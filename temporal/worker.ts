import fs from 'node:fs';
import { Worker, type NativeConnection } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';

export interface KeelWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** A prebuilt workflow bundle (production); otherwise workflows are bundled from source at start. */
  workflowBundlePath?: string;
  /** How long in-flight activities get to finish on shutdown before they are cancelled. */
  shutdownGraceTime?: string;
  /** The bundle's identity in Temporal's view; distinct per worker so operators can tell them apart. */
  identity?: string;
}

/** Creates a worker for Keel's job workflows and activities on one task queue. */
export async function createKeelWorker(options: KeelWorkerOptions): Promise<Worker> {
  const bundle =
    options.workflowBundlePath && fs.existsSync(options.workflowBundlePath)
      ? { workflowBundle: { codePath: options.workflowBundlePath } }
      : { workflowsPath: require.resolve('../workflows') };
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps),
    shutdownGraceTime: (options.shutdownGraceTime ?? '10 seconds') as '10 seconds',
    ...(options.identity ? { identity: options.identity } : {}),
    ...bundle,
  });
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

// Entry point: a worker alone (production). `npm start` runs one inside the all-in-one stack instead.
import { jobTaskQueue } from '../temporal/config';
import { startKeelWorker } from '../temporal/worker';
import { loadConfig } from './worker-config';
import { runMain } from './entry-point';
import { openResources } from './worker-resources';

async function main(): Promise<void> {
  const config = await loadConfig(process.env);
  const { worker: env } = config;
  const resources = await openResources(config);
  try {
    const worker = await startKeelWorker({
      connection: resources.connection,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: jobTaskQueue(env),
      deps: resources.deps,
      workflowBundlePath: env.WORKFLOW_BUNDLE_PATH,
      shutdownGraceTime: env.WORKER_SHUTDOWN_GRACE,
    });
    process.once('SIGINT', () => void worker.stop());
    process.once('SIGTERM', () => void worker.stop());
    await worker.done;
  } finally {
    await resources.close();
  }
}

runMain('keel worker', main);

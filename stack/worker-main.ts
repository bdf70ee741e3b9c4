// Entry point: a worker alone (production). `npm start` runs one inside the all-in-one stack instead.
import { setSdkMetricsUrl } from '../metrics/registry';
import { jobTaskQueue } from '../temporal/config';
import { installSdkMetrics } from '../temporal/sdk-metrics';
import { startKeelWorker } from '../temporal/worker';
import { workerVersioning } from '../temporal/worker-config';
import { logger } from '../telemetry/logger';
import { startTracing } from '../telemetry/tracing';
import { loadConfig } from './worker-config';
import { onStopSignals, runMain } from './entry-point';
import { openResources } from './worker-resources';
import { serveWorkerHealth } from './worker-http';

async function main(): Promise<void> {
  const config = await loadConfig(process.env);
  const { worker: env } = config;
  setSdkMetricsUrl(await installSdkMetrics(env.TEMPORAL_SDK_METRICS_PORT));
  const tracing = startTracing({ serviceName: 'keel-worker', env: config.telemetry });
  const resources = await openResources(config);
  try {
    const worker = await startKeelWorker({
      connection: resources.connection,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: jobTaskQueue(env),
      deps: resources.deps,
      workflowBundlePath: env.WORKFLOW_BUNDLE_PATH,
      shutdownGraceTime: env.WORKER_SHUTDOWN_GRACE,
      tracing,
      versioning: workerVersioning(env),
    });
    if (worker.version) {
      // What an operator reading the log of a rollout needs: which version this is and whether it takes new jobs.
      logger('worker').info(
        { deployment: worker.version.deploymentName, buildId: worker.version.buildId, promotion: worker.promotion },
        'worker polls as a pinned deployment version',
      );
    }
    const health =
      env.WORKER_HTTP_PORT === undefined
        ? undefined
        : await serveWorkerHealth(() => worker.worker.getState(), {
            host: env.WORKER_HTTP_HOST,
            port: env.WORKER_HTTP_PORT,
          });
    onStopSignals(() => void worker.stop());
    try {
      await worker.done;
    } finally {
      await health?.close();
    }
  } finally {
    await resources.close();
    await tracing.shutdown();
  }
}

runMain('keel worker', main);

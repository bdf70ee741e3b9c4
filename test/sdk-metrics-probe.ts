// Run by temporal/sdk-metrics.test.ts in a process of its own (the SDK's runtime is one per process): installs the
// runtime with TEMPORAL_SDK_METRICS_PORT = argv[2], creates it, and prints where its exporter answered, as JSON.
import { Runtime } from '@temporalio/worker';
import { installSdkMetrics } from '../temporal/sdk-metrics';

void (async () => {
  const setting = process.argv[2] === 'off' ? 'off' : Number(process.argv[2]);
  const url = await installSdkMetrics(setting);
  Runtime.instance();
  const status = url ? (await fetch(url)).status : undefined;
  process.stdout.write(JSON.stringify({ url, status }));
  process.exit(0);
})();

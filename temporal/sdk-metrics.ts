import net from 'node:net';
import { Runtime } from '@temporalio/worker';

/** A port the kernel has just handed out on loopback: free when this resolves (nothing here listens on it). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Turns on the Temporal SDK's own Prometheus exporter (task latencies, poll and slot gauges, sticky cache, …) on a
 * loopback port, before anything else creates the SDK's runtime, and returns the address its text is read from:
 * the process's `/metrics` appends it (metrics/registry.ts), so operators scrape one endpoint, not two.
 */
export async function installSdkMetrics(): Promise<string | undefined> {
  const port = await freeLoopbackPort();
  try {
    Runtime.install({ telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${port}` } } } });
  } catch {
    // A runtime exists already (an embedding process made it): its metrics are its own to export.
    return undefined;
  }
  return `http://127.0.0.1:${port}/metrics`;
}

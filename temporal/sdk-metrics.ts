import net from 'node:net';
import { DefaultLogger, makeTelemetryFilterString, Runtime, type LogLevel } from '@temporalio/worker';
import { logger } from '../telemetry/logger';

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

const PINO_LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * The SDK's own log lines (workers, activities, its native core) as Keel's structured lines, from WARN up: its INFO
 * lines (a worker's state, "no Nexus services registered") told the person at `npm start` nothing they could act on.
 */
function sdkLogger(): DefaultLogger {
  const log = logger('temporal-sdk');
  return new DefaultLogger('WARN', (entry) => log[PINO_LEVELS[entry.level]](entry.meta ?? {}, entry.message));
}

/**
 * Turns on the Temporal SDK's own Prometheus exporter (task latencies, poll and slot gauges, sticky cache, …) on a
 * loopback port, before anything else creates the SDK's runtime, and returns the address its text is read from:
 * the process's `/metrics` appends it (metrics/registry.ts), so operators scrape one endpoint, not two. `port` is
 * TEMPORAL_SDK_METRICS_PORT: 0 a free port, `off` no exporter (undefined is returned). Either way the runtime sends
 * the SDK's log lines through Keel's logger (sdkLogger).
 */
export async function installSdkMetrics(port: number | 'off'): Promise<string | undefined> {
  const bound = port === 'off' ? undefined : port === 0 ? await freeLoopbackPort() : port;
  try {
    Runtime.install({
      logger: sdkLogger(),
      telemetryOptions: {
        ...(bound === undefined ? {} : { metrics: { prometheus: { bindAddress: `127.0.0.1:${bound}` } } }),
        logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      },
    });
  } catch {
    // A runtime exists already (an embedding process made it): its metrics are its own to export.
    return undefined;
  }
  return bound === undefined ? undefined : `http://127.0.0.1:${bound}/metrics`;
}

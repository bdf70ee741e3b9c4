import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The process's one metrics registry: Keel's series (metrics/series.ts) and Node's own (CPU, memory, event-loop
 * lag, GC). Every HTTP server of the process serves it at `/metrics`; docs/metrics.md lists the series.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

let sdkMetricsUrl: string | undefined;

/**
 * Where the Temporal SDK serves its own worker metrics (its Prometheus exporter, set up in the runtime's telemetry
 * options); `/metrics` appends them, so one scrape of a process sees Keel's and the SDK's series.
 */
export function setSdkMetricsUrl(url: string | undefined): void {
  sdkMetricsUrl = url;
}

/** The text a Prometheus scrape of this process gets. An SDK exporter that does not answer costs its series only. */
export async function metricsText(): Promise<string> {
  const own = await registry.metrics();
  if (!sdkMetricsUrl) return own;
  try {
    const response = await fetch(sdkMetricsUrl, { signal: AbortSignal.timeout(2000) });
    return response.ok ? `${own}\n${await response.text()}` : own;
  } catch {
    return own;
  }
}

export const METRICS_CONTENT_TYPE = registry.contentType;

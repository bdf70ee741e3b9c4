/**
 * One tracer provider per process, registered globally so the Temporal interceptors, the HTTP hook and the model-call
 * span share context and W3C propagation. Off (nothing registered) unless an exporter or a span processor is given.
 * What code does with spans, whether or not tracing is on, is in ./spans.ts, which loads only the OpenTelemetry API:
 * this file's exporter and SDK cost a process ~0.1 s to load, and only the entry points that start tracing need them.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { TelemetryEnv } from './config';

export interface Tracing {
  enabled: boolean;
  /** Where workflow spans go too (the workflow sandbox hands them out through a sink). */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

const OFF: Tracing = {
  enabled: false,
  spanProcessor: new NoopSpanProcessor(),
  resource: new Resource({}),
  shutdown: () => Promise.resolve(),
};

/**
 * Starts tracing for this process: OTLP export when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, or the given span processor
 * (tests collect spans in memory); otherwise tracing stays off.
 */
export function startTracing(options: {
  serviceName: string;
  env?: TelemetryEnv;
  spanProcessor?: SpanProcessor;
}): Tracing {
  const endpoint = options.env?.OTEL_EXPORTER_OTLP_ENDPOINT;
  const spanProcessor =
    options.spanProcessor ??
    (endpoint
      ? new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }))
      : undefined);
  if (!spanProcessor) return OFF;
  const resource = new Resource({ 'service.name': options.env?.OTEL_SERVICE_NAME ?? options.serviceName });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Sets the global tracer provider, the AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  return { enabled: true, spanProcessor, resource, shutdown: () => provider.shutdown() };
}

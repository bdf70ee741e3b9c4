/**
 * One tracer provider per process, registered globally so the Temporal interceptors, the HTTP hook and the model-call
 * span share context and W3C propagation. Off (nothing registered) unless an exporter or a span processor is given.
 */
import { context, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { TelemetryEnv } from './config';

export const TRACER_NAME = 'keel';

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

/** The trace id of the span active here, when a trace is being recorded. */
export function activeTraceId(): string | undefined {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return undefined;
  return span.spanContext().traceId;
}

/** Runs `fn` in a child span of the active one, recording a thrown error on it. */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { attributes }, context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

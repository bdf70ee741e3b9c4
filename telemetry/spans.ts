/**
 * Spans as Keel's code makes and reads them, through the OpenTelemetry API alone: without a tracer provider (tracing
 * off, ./tracing.ts) they are no-ops.
 */
import { context, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

export const TRACER_NAME = 'keel';

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

import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';

/**
 * Tracing's slice of the environment. Spans are exported by OTLP over HTTP only when an endpoint is set; without one
 * tracing is off and costs next to nothing (the OpenTelemetry API's no-op tracer).
 */
export const telemetryEnv = z.object({
  /** The collector's base URL, as the OpenTelemetry convention has it; spans go to `<endpoint>/v1/traces`. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^https?$/, error: 'an http(s) URL, e.g. http://127.0.0.1:4318' }).optional(),
  ),
  OTEL_SERVICE_NAME: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
});
export type TelemetryEnv = z.output<typeof telemetryEnv>;

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { telemetryEnv } from './config';
import { startTracing } from './tracing';

test('without OTEL_EXPORTER_OTLP_ENDPOINT tracing is off: nothing is registered and spans do not record', async () => {
  const tracing = startTracing({ serviceName: 'keel-test', env: telemetryEnv.parse({}) });
  expect(tracing.enabled).toBe(false);
  const span = trace.getTracer('test').startSpan('job');
  expect(span.isRecording()).toBe(false);
  span.end();
  await tracing.shutdown();
});

test('an endpoint that is not a URL is refused by the config slice', () => {
  expect(telemetryEnv.safeParse({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }).success).toBe(false);
  expect(telemetryEnv.parse({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
});

test('with OTEL_EXPORTER_OTLP_ENDPOINT set, spans are sent by OTLP/HTTP to <endpoint>/v1/traces on flush', async () => {
  const received: Array<{ url: string; body: string }> = [];
  const collector = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ url: request.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const { port } = collector.address() as AddressInfo;
  try {
    const env = telemetryEnv.parse({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}/`,
      OTEL_SERVICE_NAME: 'keel-probe',
    });
    const tracing = startTracing({ serviceName: 'keel-test', env });
    expect(tracing.enabled).toBe(true);
    const span = trace.getTracer('test').startSpan('probe span');
    const { traceId } = span.spanContext();
    span.end();
    await tracing.shutdown();

    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/v1/traces');
    const body = JSON.parse(received[0]!.body) as {
      resourceSpans: Array<{
        resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
        scopeSpans: Array<{ spans: Array<{ name: string; traceId: string }> }>;
      }>;
    };
    const [resourceSpans] = body.resourceSpans;
    expect(resourceSpans!.resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'keel-probe' },
    });
    expect(resourceSpans!.scopeSpans[0]!.spans[0]).toMatchObject({ name: 'probe span', traceId });
  } finally {
    await new Promise((resolve) => collector.close(resolve));
  }
});

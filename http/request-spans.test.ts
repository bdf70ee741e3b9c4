import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing, type Tracing } from '../telemetry/tracing';
import { createBaseApp } from './base-app';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;

beforeAll(() => {
  tracing = startTracing({ serviceName: 'test', spanProcessor: new SimpleSpanProcessor(exporter) });
});

afterAll(() => tracing.shutdown());

/** The API, identity and console apps all start from createBaseApp; this one logs its JSON lines into `lines`. */
function appLoggingTo(lines: Array<Record<string, unknown>>) {
  const app = createBaseApp(
    { title: 'test', description: 'test' },
    {
      logger: {
        level: 'info',
        stream: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
      },
    },
  );
  app.get('/v1/jobs/:id', (request) => {
    request.log.info('looking the job up');
    return { id: (request.params as { id: string }).id };
  });
  app.get('/healthz', () => ({ ok: true }));
  return app;
}

function linesOf(lines: Array<Record<string, unknown>>, reqId: unknown) {
  return lines.filter((line) => line.reqId === reqId);
}

test("every log line of a request carries the trace id of the request's span, and the job id on a job's route", async () => {
  const lines: Array<Record<string, unknown>> = [];
  const app = appLoggingTo(lines);

  const response = await app.inject({ url: '/v1/jobs/job-42' });
  expect(response.statusCode).toBe(200);

  const span = exporter.getFinishedSpans().find((s) => s.name === 'GET /v1/jobs/:id');
  expect(span).toBeDefined();
  const request = linesOf(lines, lines.find((line) => line.msg === 'incoming request')?.reqId);
  expect(request.map((line) => line.msg)).toEqual(['incoming request', 'looking the job up', 'request completed']);
  for (const line of request) {
    expect(line).toMatchObject({ trace_id: span!.spanContext().traceId, job_id: 'job-42' });
  }

  // A route with no job still carries its own trace, a different one; an unrouted request (404) too.
  lines.length = 0;
  await app.inject({ url: '/healthz' });
  await app.inject({ url: '/nowhere' });
  const health = exporter.getFinishedSpans().find((s) => s.name === 'GET /healthz')!;
  const unrouted = exporter.getFinishedSpans().find((s) => s.name === 'GET unrouted')!;
  const [first = [], second = []] = [...new Set(lines.map((line) => line.reqId))].map((id) => linesOf(lines, id));
  expect(first.length).toBeGreaterThanOrEqual(2);
  for (const line of first) expect(line.trace_id).toBe(health.spanContext().traceId);
  for (const line of first) expect(line).not.toHaveProperty('job_id');
  expect(second.length).toBeGreaterThanOrEqual(2);
  for (const line of second) expect(line.trace_id).toBe(unrouted.spanContext().traceId);
  expect(health.spanContext().traceId).not.toBe(span!.spanContext().traceId);
  await app.close();
});

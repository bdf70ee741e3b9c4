import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing, type Tracing } from '../../telemetry/tracing';
import { runJobToEnd, startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { eventually } from './eventually';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let infra: Infrastructure;
let keel: KeelUnderTest;

beforeAll(async () => {
  tracing = startTracing({ serviceName: 'keel-test', spanProcessor: new SimpleSpanProcessor(exporter) });
  infra = await startInfrastructure();
  keel = await startKeel({ ...infra, tracing });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
  await tracing?.shutdown();
});

/** The span's ancestors, nearest first, as far as the collected spans reach. */
function ancestry(span: ReadableSpan, spans: ReadableSpan[]): ReadableSpan[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const chain: ReadableSpan[] = [];
  for (let parent = byId.get(span.parentSpanId ?? ''); parent; parent = byId.get(parent.parentSpanId ?? '')) {
    chain.push(parent);
  }
  return chain;
}

test('one trace runs from the API request through the job workflow, a level workflow and an activity to the model call', async () => {
  const { events } = await runJobToEnd(keel, 'Write hello.md that greets the reader');
  expect(events.at(-1)?.kind).toBe('final');

  const request = exporter.getFinishedSpans().find((s) => s.name === 'POST /v1/chat');
  expect(request).toBeDefined();
  const traceId = request!.spanContext().traceId;
  expect(request!.attributes['http.response.status_code']).toBe(202);

  // Workflow spans leave the sandbox when their workflow finishes, so the job's own span may come a moment after `final`.
  const [modelCall, chain] = await eventually(
    () => {
      const spans = exporter.getFinishedSpans();
      for (const span of spans.filter((s) => s.name === 'model call' && s.spanContext().traceId === traceId)) {
        const up = ancestry(span, spans);
        if (up.at(-1) === request) return [span, up] as const;
      }
      return undefined;
    },
    { what: 'a model call span linked up to the request', intervalMs: 200 },
  );
  expect(modelCall.attributes['llm.provider']).toBe('demo');
  const names = chain.map((s) => s.name);
  expect(names[0]).toBe('RunActivity:callModel');
  expect(names).toContain('StartActivity:callModel');
  expect(names).toContain('StartChildWorkflow:runLevel');
  expect(names.filter((n) => n.startsWith('RunWorkflow:'))).toHaveLength(2);
  expect(names.at(-2)).toMatch(/^StartWorkflow:/);
  expect(chain.every((s) => s.spanContext().traceId === traceId)).toBe(true);

  // The job's events carry its trace id, so an operator goes from an event to the trace.
  expect(events.length).toBeGreaterThan(0);
  for (const event of events) expect(event.payload.trace_id).toBe(traceId);
});

import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { addLogContext, createLogger } from './logger';
import { startTracing } from './tracing';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({ write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

test('a line logged inside a recorded span carries its trace id, a level and the registered context', async () => {
  const tracing = startTracing({
    serviceName: 'test',
    spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()),
  });
  let current: Record<string, unknown> | undefined;
  addLogContext(() => current);
  const { log, lines } = capture();

  log.warn('outside');
  const traceId = trace.getTracer('test').startActiveSpan('job', (span) => {
    current = { job_id: 'job-1', temporal_workflow_id: 'job-1/L2.architect/1' };
    log.child({ component: 'routing' }).warn('inside');
    current = undefined;
    span.end();
    return span.spanContext().traceId;
  });
  await tracing.shutdown();

  expect(lines[0]).toMatchObject({ level: 40, msg: 'outside' });
  expect(lines[0]).not.toHaveProperty('trace_id');
  expect(lines[0]).not.toHaveProperty('job_id');
  expect(lines[1]).toMatchObject({
    level: 40,
    msg: 'inside',
    component: 'routing',
    trace_id: traceId,
    job_id: 'job-1',
    temporal_workflow_id: 'job-1/L2.architect/1',
  });
});

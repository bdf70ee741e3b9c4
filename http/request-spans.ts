import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { TRACER_NAME } from '../telemetry/spans';

const spans = new WeakMap<FastifyRequest, Span>();

/** The request's server span, opened by whichever comes first: its first log line or its onRequest hook. */
function spanOf(request: FastifyRequest): Span {
  let span = spans.get(request);
  if (!span) {
    span = trace.getTracer(TRACER_NAME).startSpan(`${request.method} ${request.routeOptions.url ?? 'unrouted'}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0] },
    });
    spans.set(request, span);
  }
  return span;
}

/** Routes under `/jobs/:id` (the API's `/v1/jobs/:id/…`, the console's `/jobs/:id` page) name a job. */
const JOB_ROUTE = /\/jobs\/:id(\/|$)/;

/** What every log line of this request carries besides Fastify's reqId: its trace id and, on a job's route, the job id. */
function requestLogFields(request: FastifyRequest, span: Span): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  if (span.isRecording()) fields.trace_id = span.spanContext().traceId;
  const params = request.params as Record<string, unknown> | undefined;
  if (JOB_ROUTE.test(request.routeOptions.url ?? '') && typeof params?.id === 'string') fields.job_id = params.id;
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/**
 * Fastify's request log lines ("incoming request", "request completed", errors) are written outside the request's
 * span (the first before any hook runs, the last after the response), so a pino mixin reading the active span would
 * miss them. Instead the request's own logger is given the trace id (and job id) as bindings the moment the request
 * is logged for the first time, so every line of the request, the handler's `request.log` included, carries them.
 */
export class TracedLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    const fields = requestLogFields(request, spanOf(request));
    if (fields) {
      request.log = request.log.child(fields);
      reply.log = request.log;
    }
    super.incomingRequest(request, reply, metadata);
  }
}

/**
 * One server span per request, the parent of what the handler does (starting a job's workflow among it). The span
 * opens when the request arrives and becomes the active context just before the handler: `done` is called inside
 * `context.with`, and Fastify runs the handler from it, so the handler's async work inherits the span. Activating it
 * earlier would be lost, since the body is parsed on the socket's own events. With tracing off every span is a no-op.
 */
export function addRequestSpans(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    spanOf(request);
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const span = spans.get(request);
    if (!span) return done();
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      spans.delete(request);
    }
    done();
  });
}

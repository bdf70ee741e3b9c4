import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TRACER_NAME } from '../telemetry/tracing';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * One server span per request, the parent of what the handler does (starting a job's workflow among it). The span
 * opens when the request arrives and becomes the active context just before the handler: `done` is called inside
 * `context.with`, and Fastify runs the handler from it, so the handler's async work inherits the span. Activating it
 * earlier would be lost, since the body is parsed on the socket's own events. With tracing off every span is a no-op.
 */
export function addRequestSpans(app: FastifyInstance): void {
  const tracer = trace.getTracer(TRACER_NAME);
  app.addHook('onRequest', (request, _reply, done) => {
    const span = tracer.startSpan(`${request.method} ${request.routeOptions.url ?? 'unrouted'}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0] },
    });
    spans.set(request, span);
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

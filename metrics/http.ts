import type { FastifyInstance } from 'fastify';
import { metricsText, METRICS_CONTENT_TYPE } from './registry';
import { httpRequests, httpRequestSeconds } from './series';

/**
 * Counts and times every request `app` answers under `service`, labelled by the route template (never the raw
 * path, so ids do not become series), and serves the process's metrics at `GET /metrics` in Prometheus format.
 * `/metrics` needs no token, like `/healthz`: it carries no tenant data, and it is meant for an internal scraper.
 */
export function instrumentHttp(app: FastifyInstance, service: string): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unrouted';
    if (route === '/metrics') return;
    httpRequests.inc({ service, method: request.method, route, status: String(reply.statusCode) });
    httpRequestSeconds.observe({ service, method: request.method, route }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { config: { public: true } }, async (_request, reply) => {
    reply.header('content-type', METRICS_CONTENT_TYPE);
    return metricsText();
  });
}

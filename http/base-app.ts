import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { handleError } from './errors';
import { refuseNul } from './nul-guard';
import { openApiPlugin, type ApiInfo } from './openapi';

/** Largest request body accepted unless a service sets its own `bodyLimit`; prompts are capped well below it. */
const BODY_LIMIT_BYTES = 256 * 1024;

export const noSuchRoute = (request: FastifyRequest, reply: FastifyReply) =>
  reply.code(404).send({ error: { code: 'not_found', message: `no route ${request.method} ${request.url}` } });

/**
 * A Fastify instance with the API's contract: zod bodies, JSON-only, `{ error: { code, message } }` on every error,
 * including a request no route serves (`unrouted`; a 404 by default), and its OpenAPI document at `/openapi.json`
 * generated from the route schemas, rendered at `/docs`.
 */
export function createBaseApp(
  api: ApiInfo,
  options: FastifyServerOptions = {},
  unrouted: (request: FastifyRequest, reply: FastifyReply) => FastifyReply = noSuchRoute,
) {
  const app = Fastify({ bodyLimit: BODY_LIMIT_BYTES, ...options }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every body is JSON; refusing text/plain up front gives a 415 instead of a confusing validation error.
  app.removeContentTypeParser('text/plain');
  acceptEmptyJson(app);
  app.addHook('preValidation', refuseNul);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(unrouted);
  // Registered before any route of the caller's, so the document sees every one (avvio loads plugins in order).
  void app.register(openApiPlugin, api);
  return app;
}

/**
 * `Content-Type: application/json` with no body is what many clients send on a body-less action (`POST …/hide`);
 * Fastify refuses it (FST_ERR_CTP_EMPTY_JSON_BODY). An empty body parses as no body: a route without a body schema
 * runs, and one with a schema refuses it in its own words. Anything else goes through Fastify's own JSON parser, which
 * keeps its prototype-poisoning checks.
 */
function acceptEmptyJson(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') {
      done(null, undefined);
      return;
    }
    void json(request, text, done);
  });
}

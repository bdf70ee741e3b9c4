import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { handleError } from './errors';
import { addRequestSpans } from './request-spans';

/** Largest request body accepted unless a service sets its own `bodyLimit`; prompts are capped well below it. */
const BODY_LIMIT_BYTES = 256 * 1024;

export const noSuchRoute = (request: FastifyRequest, reply: FastifyReply) =>
  reply.code(404).send({ error: { code: 'not_found', message: `no route ${request.method} ${request.url}` } });

/**
 * A Fastify instance with the API's contract: zod bodies, JSON-only, `{ error: { code, message } }` on every error,
 * including a request no route serves (`unrouted`; a 404 by default).
 */
export function createBaseApp(
  options: FastifyServerOptions = {},
  unrouted: (request: FastifyRequest, reply: FastifyReply) => FastifyReply = noSuchRoute,
) {
  const app = Fastify({ bodyLimit: BODY_LIMIT_BYTES, ...options }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every body is JSON; refusing text/plain up front gives a 415 instead of a confusing validation error.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(unrouted);
  addRequestSpans(app);
  return app;
}

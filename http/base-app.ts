import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Invalid } from '../refusals/refusal';
import { handleError } from './errors';
import { refuseBadInput } from './input-guard';
import { openApiPlugin, type ApiInfo } from './openapi';
import { addRequestSpans, TracedLogController } from './request-spans';

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
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    // Errors the router raises before any route runs (a parameter over maxParamLength, a malformed URL) get the same
    // `{ error: { code, message } }` body as every other error, not Fastify's own shape.
    frameworkErrors: (err, request, reply) => {
      void handleError(err, request, reply);
    },
    // Every request log line carries the request's trace id, and the job id on a job's route (http/request-spans.ts).
    logController: new TracedLogController(),
    ...options,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every body is JSON; refusing text/plain up front gives a 415 instead of a confusing validation error.
  app.removeContentTypeParser('text/plain');
  acceptEmptyJson(app);
  app.addHook('preValidation', refuseBadInput);
  app.addHook('onSend', closeAfterUnreadBody);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(unrouted);
  // Registered before any route of the caller's, so the document sees every one (avvio loads plugins in order).
  void app.register(openApiPlugin, api);
  addRequestSpans(app);
  return app;
}

/**
 * An answer sent before the request's body has all arrived (a 429 from a rate limit that runs before the body is read,
 * a 413 once a chunked body passes the limit) closes the connection after it. Otherwise Node keeps the socket for the
 * next request while the client, still sending, waits for the server to read: the socket stays busy until the
 * keep-alive timeout (72 s), and `close()` of the whole service waits for it. Go's net/http does the same for an
 * unread body.
 */
async function closeAfterUnreadBody(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (!request.raw.complete) void reply.header('connection', 'close');
  return payload;
}

/** Decodes strictly: a body that is not UTF-8 is refused instead of having its bad bytes replaced by U+FFFD. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Fastify's JSON parser, with two differences. `Content-Type: application/json` with no body is what many clients send
 * on a body-less action (`POST …/hide`); Fastify refuses it (FST_ERR_CTP_EMPTY_JSON_BODY), here it parses as no body: a
 * route without a body schema runs, and one with a schema refuses it in its own words. And a body that is not valid
 * UTF-8 (which JSON must be) is 400 rather than silently altered. Everything else goes through Fastify's own parser,
 * which keeps its prototype-poisoning checks.
 */
function acceptEmptyJson(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = typeof body === 'string' ? body : utf8.decode(body);
    } catch {
      done(new Invalid('invalid_request', 'body: not valid UTF-8'), undefined);
      return;
    }
    if (text === '') {
      done(null, undefined);
      return;
    }
    void json(request, text, done);
  });
}

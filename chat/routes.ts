import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { handleMessage } from './inbound';
import { handleBlockActions } from './interactions';
import { BlockActions, ChatMessageEvent, EventsRequest, InteractionForm } from './payloads';
import { verifyRequestSignature } from './signature';
import type { ChatApp } from '../chat-relay/chat-app';
import type { JobsDeps } from '../jobs/deps';
import { AppError } from '../http/errors';
import { named } from '../http/named-plugin';

/** Refused chat requests: a bad or missing signature, a stale timestamp, or no signing secret configured. */
class SignatureRejectedError extends AppError {
  override name = 'SignatureRejectedError';
  constructor(reason: string) {
    super(401, 'unauthorized', `chat request signature refused: ${reason}`);
  }
}

function invalid(what: string, error?: z.ZodError): AppError {
  return new AppError(400, 'invalid_request', error ? `${what}: ${z.prettifyError(error)}` : what);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The chat system's two request URLs, authenticated only by the request signature (never by an API token). The body
 * reaches the handlers as raw bytes, since the signature covers those exact bytes; it is parsed only once verified.
 */
export function chatAppRoutes(deps: JobsDeps & { chatApp?: ChatApp }) {
  return named('chatAppRoutes', async (app: FastifyInstance) => {
    // Scoped to this plugin: elsewhere JSON is parsed as usual.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      ['application/json', 'application/x-www-form-urlencoded'],
      { parseAs: 'buffer' },
      (_request, body, done) => done(null, body),
    );

    const verified = async (request: FastifyRequest): Promise<Buffer> => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      // Read at each request: a rotated signing secret applies without a restart.
      const verdict = verifyRequestSignature(await deps.chatApp?.signingSecret(), {
        timestamp: header(request, 'x-slack-request-timestamp'),
        signature: header(request, 'x-slack-signature'),
        rawBody,
      });
      if (!verdict.ok) throw new SignatureRejectedError(verdict.reason);
      return rawBody;
    };

    // The chat system reads only the status (and the challenge once, when the URL is verified).
    const Ok = z.object({ ok: z.literal(true) });
    const eventsSchema = { response: { 200: z.union([z.object({ challenge: z.string() }), Ok]) } };
    app.post('/v1/chatapp/events', { config: { signedRequest: true }, schema: eventsSchema }, async (request) => {
      const rawBody = await verified(request);
      const parsed = EventsRequest.safeParse(parseJson(rawBody));
      if (!parsed.success) throw invalid('body', parsed.error);
      const body = parsed.data;
      if (body.type === 'url_verification') return { challenge: body.challenge };

      const chat = deps.chatApp!;
      if (body.event.type !== 'message' && body.event.type !== 'app_mention') {
        request.log.debug({ type: body.event.type }, 'chatapp: event type not handled');
        return { ok: true };
      }
      const event = ChatMessageEvent.safeParse(body.event);
      if (!event.success) throw invalid('event', event.error);
      const outcome = await handleMessage(deps, chat, { eventId: body.event_id, event: event.data }, request.log);
      request.log.info(
        { event_id: body.event_id, retry: header(request, 'x-slack-retry-num'), ...outcome },
        'chatapp event',
      );
      return { ok: true };
    });

    const interactionsSchema = { response: { 200: Ok } };
    app.post(
      '/v1/chatapp/interactions',
      { config: { signedRequest: true }, schema: interactionsSchema },
      async (request) => {
        const rawBody = await verified(request);
        const form = InteractionForm.safeParse(Object.fromEntries(new URLSearchParams(rawBody.toString('utf8'))));
        if (!form.success) throw invalid('body', form.error);
        const json = parseJson(Buffer.from(form.data.payload, 'utf8'));
        const kind = z.object({ type: z.string() }).safeParse(json);
        if (!kind.success) throw invalid('payload', kind.error);
        if (kind.data.type !== 'block_actions') {
          request.log.debug({ type: kind.data.type }, 'chatapp: interaction type not handled');
          return { ok: true };
        }
        const payload = BlockActions.safeParse(json);
        if (!payload.success) throw invalid('payload', payload.error);
        const outcome = await handleBlockActions(deps, deps.chatApp!, payload.data, request.log);
        request.log.info(outcome, 'chatapp interaction');
        return { ok: true };
      },
    );
  });
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

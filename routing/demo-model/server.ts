import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sse from '@fastify/sse';
import Fastify from 'fastify';
import type { FastifyError, FastifyReply } from 'fastify';
import type { z } from 'zod';
import { chatCompletionRequestSchema } from './chat-wire';
import { completionId, toChunks, toCompletion } from './completion-wire';
import { createReplyDelays } from './reply-delay';
import type { Sleep } from './reply-delay';
import { isSlow } from './directives';
import { DEMO_MODEL_DISPLAY_NAME, DEMO_MODEL_ID, respond } from './respond';

export interface DemoModelServerOptions {
  /** Interface to bind; loopback by default because the demo model has no authentication. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Fastify request logging; off by default. */
  logger?: boolean;
  /** Clock for the `created` field, in milliseconds; `Date.now` by default. */
  now?: () => number;
  /** How long a `#slow` request waits before its reply, in milliseconds: 3000 by default, time to press cancel. */
  slowMs?: number;
  /** The wait behind `slowMs`, settling early once its signal aborts; a cleared-on-abort timer by default. */
  sleep?: Sleep;
  /**
   * Pause between the chunks of a streamed answer, in milliseconds, so a person sees it arrive: 0 (the default)
   * sends them at once; the stack sets DEMO_MODEL_CHUNK_MS.
   */
  chunkMs?: number;
}

export interface DemoModelServer {
  /** Ends with `/v1`, ready to be the official client's `baseURL`. */
  baseUrl: string;
  /**
   * Every chat completion this server answered, oldest first: its model and the last message's text. The request log a
   * test reads to tell that a step made no model call (a fork's carried level runs, docs/fork-and-compare.md).
   */
  readonly requests: ReadonlyArray<{ model: string; lastMessage: string }>;
  close(): Promise<void>;
}

interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const DEFAULT_SLOW_MS = 3000;

// Keel contexts grow with each level; the default 1 MiB would turn long jobs into 413s.
const BODY_LIMIT = 16 * 1024 * 1024;

// Clients see OpenAI-style codes, not the names of our HTTP framework's internals.
const FRAMEWORK_ERROR_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
};

const MODEL_ENTRY = {
  id: DEMO_MODEL_ID,
  object: 'model',
  created: 0,
  owned_by: 'keel',
  display_name: DEMO_MODEL_DISPLAY_NAME,
};

/**
 * Starts the offline demo model on the OpenAI chat-completions wire: `POST /v1/chat/completions` (JSON, or SSE
 * with `stream: true`), `GET /v1/models` and `GET /v1/models/:id`. Any model name is accepted and echoed back.
 * Bad input is answered 4xx with an OpenAI-shaped error body. The caller owns the server and must `close()` it.
 *
 * A request whose job prompt carries `#slow` is answered after `slowMs`; a client that disconnects ends its wait
 * without a reply, and `close()` ends every pending wait with a 503 (`server_shutting_down`) instead of waiting.
 */
export async function startDemoModelServer(options: DemoModelServerOptions = {}): Promise<DemoModelServer> {
  const { host = '127.0.0.1', port = 0, logger = false, now = Date.now, slowMs = DEFAULT_SLOW_MS } = options;
  const app = Fastify({ logger, bodyLimit: BODY_LIMIT });
  const delays = createReplyDelays(options.sleep);
  const unused = trackUnusedConnections(app.server);
  const requests: Array<{ model: string; lastMessage: string }> = [];
  // Before the server stops listening, so `close()` waits neither for a `#slow` delay nor for a connection that
  // never carries a request.
  app.addHook('preClose', (done) => {
    delays.closeAll();
    unused.destroyAll();
    done();
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, error.message, { code: FRAMEWORK_ERROR_CODES[error.code] ?? 'invalid_request' });
    }
    reply.log.error(error);
    return sendError(reply, 500, 'The demo model failed to answer.', { type: 'server_error' });
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, `Invalid URL (${request.method} ${request.url})`, { code: 'unknown_url' }),
  );

  app.get('/v1/models', () => ({ object: 'list', data: [MODEL_ENTRY] }));

  app.get<{ Params: { id: string } }>('/v1/models/:id', (request, reply) => {
    if (request.params.id === DEMO_MODEL_ID) return MODEL_ENTRY;
    return sendError(reply, 404, `The model '${request.params.id}' does not exist`, {
      param: 'model',
      code: 'model_not_found',
    });
  });

  await app.register(sse);

  // `manual`: like the real wire, the body's `stream` flag (not the Accept header) decides SSE or JSON.
  const streamOptions = { kind: 'manual' as const, heartbeat: false, serializer: frameData };
  app.post('/v1/chat/completions', { sse: streamOptions }, async (request, reply) => {
    const parsed = chatCompletionRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      const { error } = parsed;
      return sendError(reply, 400, describeIssue(error), { ...issueParam(error), code: 'invalid_request_body' });
    }

    const body = parsed.data;
    const last = body.messages.at(-1)?.content;
    requests.push({ model: body.model, lastMessage: typeof last === 'string' ? last : JSON.stringify(last ?? '') });
    if (isSlow(body)) {
      const outcome = await delays.wait(slowMs, reply.raw);
      // Nobody is left to read a reply.
      if (outcome === 'disconnected') return reply;
      if (outcome === 'closing') {
        // So the connection ends with this reply rather than idling while the server closes.
        reply.header('connection', 'close');
        return sendError(reply, 503, 'The demo model is shutting down.', {
          type: 'server_error',
          code: 'server_shutting_down',
        });
      }
    }

    const answer = respond(body);
    const meta = { id: completionId(body.model, body.messages), model: body.model, created: Math.floor(now() / 1000) };
    if (!body.stream) return toCompletion(answer, meta);

    const chunks = toChunks(answer, { ...meta, includeUsage: body.stream_options?.include_usage === true });
    const chunkMs = options.chunkMs ?? 0;
    for (const [index, data] of [...chunks, DONE].entries()) {
      // The paced wait ends early for a client that left or a server closing: the rest is not sent.
      if (chunkMs > 0 && index > 0 && (await delays.wait(chunkMs, reply.raw)) !== 'elapsed') break;
      await reply.sse.send({ data });
    }
  });

  await app.listen({ host, port });
  return {
    requests,
    baseUrl: `http://${urlHost(app.server.address() as AddressInfo)}/v1`,
    close: () => app.close(),
  };
}

/** The wire's stream terminator: `data: [DONE]`, sent verbatim rather than as a JSON string. */
const DONE = '[DONE]';

function frameData(data: unknown): string {
  return data === DONE ? DONE : JSON.stringify(data);
}

function sendError(
  reply: FastifyReply,
  status: number,
  message: string,
  fields: { type?: string; param?: string | null; code?: string | null } = {},
): FastifyReply {
  const body: OpenAiErrorBody = {
    error: {
      message,
      type: fields.type ?? 'invalid_request_error',
      param: fields.param ?? null,
      code: fields.code ?? null,
    },
  };
  return reply.code(status).send(body);
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request body.';
  const where = issue.path.length > 0 ? `'${issue.path.map(String).join('.')}'` : 'request body';
  return `Invalid ${where}: ${issue.message}`;
}

function issueParam(error: z.ZodError): { param: string | null } {
  const path = error.issues[0]?.path ?? [];
  return { param: path.length > 0 ? path.map(String).join('.') : null };
}

/**
 * Connections that have not carried a request yet. Node's `server.close()` ends idle keep-alive connections but
 * waits for these until they time out, and fetch (undici) opens one right after a request is aborted, as when
 * a person cancels during a `#slow` delay; it would hold `close()` for the client's keep-alive timeout.
 */
function trackUnusedConnections(server: Server): { destroyAll(): void } {
  const unused = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
  return {
    destroyAll: () => {
      for (const socket of unused) socket.destroy();
    },
  };
}

/** host:port for a URL; a wildcard bind is reached through loopback, and IPv6 needs brackets. */
function urlHost(address: AddressInfo): string {
  if (address.family === 'IPv6') {
    const host = address.address === '::' ? '::1' : address.address;
    return `[${host}]:${address.port}`;
  }
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `${host}:${address.port}`;
}

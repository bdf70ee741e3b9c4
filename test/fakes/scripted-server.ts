import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

/** One answer a fake vendor gives, in that vendor's own JSON. */
export interface CannedReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Hold the answer this long (ms), so a test can abort the request while it is in flight. */
  delayMs?: number;
  /**
   * A streamed answer: a 200 `text/event-stream` whose events are these `data:` payloads, written one at a time (each
   * its own write), then the end of the response, or with `then: 'stall'` nothing more until the client hangs up.
   */
  stream?: { frames: Array<string | { event: string; data: string }>; then?: 'end' | 'stall' };
  /** An answer made from the request it answers (e.g. usage counted from its body); the rest of this reply is unused. */
  respond?: (body: unknown) => CannedReply;
}

/** A request the fake received, its body parsed with the vendor's request schema. */
export interface RecordedRequest<TBody> {
  /** Path and query, e.g. `/v1beta/models/gemini-2.5-flash:generateContent`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: TBody;
}

export interface ScriptedServer<TBody> {
  /** `http://127.0.0.1:<port>`; each vendor fake appends the prefix its client expects. */
  origin: string;
  /** Every request that reached the vendor route, including ones its schema rejected (body: undefined). */
  readonly requests: ReadonlyArray<RecordedRequest<TBody>>;
  /** Queues answers, consumed one per request in order. */
  enqueue(...replies: CannedReply[]): void;
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs` so a test cannot hang. */
  received(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ScriptedServerOptions<TSchema extends z.ZodType> {
  /** The vendor route; a Fastify path, wildcards allowed. */
  route: string;
  schema: TSchema;
  /** The vendor's answer to a body its API would reject, so a translation bug fails like the real thing. */
  invalidRequest: (message: string) => CannedReply;
  /** The answer when a test did not script one: a 5xx, so an unexpected (retried) request is visible. */
  unscripted: () => CannedReply;
  /**
   * How the vendor streams a canned JSON answer to a request that asked for a stream (undefined: send it as it is),
   * so a test scripted with whole answers also runs against a client that streams.
   */
  streamed?: (body: z.infer<TSchema>, canned: CannedReply, url: string) => CannedReply | undefined;
}

// Large enough for long agent contexts; the vendors' own limits are far above Fastify's 1 MiB default.
const BODY_LIMIT = 32 * 1024 * 1024;

/**
 * A loopback Fastify server for one vendor route that answers from a queue of canned replies and records
 * what it received. Vendor fakes build on it; tests script it per case and read `requests` to check the
 * translated request.
 */
export async function startScriptedServer<TSchema extends z.ZodType>(
  options: ScriptedServerOptions<TSchema>,
): Promise<ScriptedServer<z.infer<TSchema>>> {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, forceCloseConnections: true });
  const queue: CannedReply[] = [];
  const requests: Array<RecordedRequest<z.infer<TSchema>>> = [];
  const held = new Set<() => void>();
  const waiters = new Set<() => void>();

  app.post(options.route, async (request, reply) => {
    const parsed = options.schema.safeParse(request.body);
    requests.push({
      url: request.url,
      headers: request.headers,
      body: parsed.success ? parsed.data : (undefined as z.infer<TSchema>),
    });
    for (const check of [...waiters]) check();
    if (!parsed.success) {
      return send(reply, options.invalidRequest(formatIssues(parsed.error)));
    }
    const queued = queue.shift() ?? options.unscripted();
    const next = queued.respond ? queued.respond(parsed.data) : queued;
    const canned = (!next.stream && options.streamed?.(parsed.data, next, request.url)) || next;
    if (canned.delayMs) await hold(canned.delayMs, reply);
    if (canned.stream) return sendStream(reply, canned.stream, hold);
    return send(reply, canned);
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;

  /** Waits out a delay, ending early when the client hangs up or the server closes. */
  function hold(ms: number, reply: FastifyReply): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        held.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      held.add(done);
      reply.raw.once('close', done);
    });
  }

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    received: (count, timeoutMs = 5_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} request(s), received ${requests.length}`));
        }, timeoutMs);
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    close: async () => {
      for (const release of [...held]) release();
      await app.close();
    },
  };
}

function send(reply: FastifyReply, canned: CannedReply): FastifyReply {
  if (reply.raw.destroyed) return reply;
  return reply
    .code(canned.status)
    .headers({ 'content-type': 'application/json', ...canned.headers })
    .send(JSON.stringify(canned.body));
}

/** Writes a streamed answer frame by frame, as a vendor's server does while its model generates. */
async function sendStream(
  reply: FastifyReply,
  stream: NonNullable<CannedReply['stream']>,
  hold: (ms: number, reply: FastifyReply) => Promise<void>,
): Promise<FastifyReply> {
  reply.hijack();
  const raw = reply.raw;
  if (raw.destroyed) return reply;
  raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const frame of stream.frames) {
    if (raw.destroyed) return reply;
    raw.write(typeof frame === 'string' ? `data: ${frame}\n\n` : `event: ${frame.event}\ndata: ${frame.data}\n\n`);
    // A turn of the event loop between frames, so each reaches the client as its own read.
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Stalled: the connection stays open, silent, until the client gives up or the server closes.
  if (stream.then === 'stall') await hold(2 ** 31 - 1, reply);
  if (!raw.destroyed) raw.end();
  return reply;
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
}

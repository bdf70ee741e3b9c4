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
    const canned = queue.shift() ?? options.unscripted();
    if (canned.delayMs) await hold(canned.delayMs, reply);
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

function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
}

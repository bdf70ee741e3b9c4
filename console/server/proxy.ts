import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bytesResponse, eventStreamResponse, redirectResponse } from '../../http/body-schemas';
import { relayableHeaders, type Upstream, type UpstreamRequest, type UpstreamResponse } from './upstream';

/** Request headers the browser may pass to the identity service (the session cookie, sign-in origin checks). */
const TO_IDENTITY = ['cookie', 'content-type', 'accept', 'accept-language', 'origin', 'user-agent'];

/** Request headers the browser may pass to the ingest API; its credential and the acting user are the console's. */
const TO_INGEST = ['content-type', 'accept', 'accept-language', 'last-event-id', 'user-agent'];

function pick(request: FastifyRequest, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = request.headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** The client address chain for the identity service's per-IP sign-in limit (it trusts it per TRUST_PROXY_HOPS). */
function forwardedFor(request: FastifyRequest): string {
  const previous = request.headers['x-forwarded-for'];
  const chain = typeof previous === 'string' && previous.trim() !== '' ? `${previous}, ` : '';
  return `${chain}${request.ip}`;
}

export function identityHeaders(request: FastifyRequest): Record<string, string> {
  return { ...pick(request, TO_IDENTITY), 'x-forwarded-for': forwardedFor(request) };
}

export function ingestHeaders(
  request: FastifyRequest,
  credential: { token: string; user: { id: string; role: string } },
): Record<string, string> {
  return {
    ...pick(request, TO_INGEST),
    authorization: `Bearer ${credential.token}`,
    'x-keel-acting-user': credential.user.id,
    'x-keel-acting-role': credential.user.role,
  };
}

/** The request's raw body as the proxy scope's parser kept it (a Buffer), or undefined for none. */
export function rawBody(request: FastifyRequest): Buffer | undefined {
  return Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : undefined;
}

/** The path and query after `prefix` exactly as the browser sent them (still percent-encoded). */
export function pathAfter(request: FastifyRequest, prefix: string): { path: string; search: string } {
  const url = request.url;
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).slice(prefix.length);
  return { path, search: q === -1 ? '' : url.slice(q) };
}

/** Hands an upstream answer to the browser as it is: status, headers (cookies, Location) and an unbuffered body. */
export function relay(reply: FastifyReply, res: UpstreamResponse): FastifyReply {
  // The browser leaving must end the upstream request too (an SSE stream would otherwise stay open).
  reply.raw.once('close', () => res.body.destroy());
  return reply.code(res.statusCode).headers(relayableHeaders(res.headers)).send(res.body);
}

/** Sends `req` upstream and relays the answer. */
export async function forward(reply: FastifyReply, upstream: Upstream, req: UpstreamRequest): Promise<FastifyReply> {
  return relay(reply, await upstream.send(req));
}

/**
 * The success responses of a proxy route: whatever the upstream answered for the same path, which its own
 * `/openapi.json` describes exactly. Here it is stated as the kinds of body an upstream sends: every JSON body of Keel's
 * services is an object; the ingest API also streams events and serves files; the identity service redirects to and
 * from the identity provider.
 */
export function proxiedResponses(upstream: 'identity service' | 'ingest API') {
  const json = z.looseObject({}).describe(`the ${upstream}'s JSON body for the same path`);
  const success = {
    description: `the ${upstream}'s answer, passed on as it is`,
    content: { 'application/json': { schema: json } },
  };
  if (upstream === 'identity service') {
    return { '2XX': success, 302: redirectResponse("the identity service's redirect (OIDC sign-in), passed on") };
  }
  return {
    '2XX': {
      ...success,
      content: {
        ...success.content,
        ...eventStreamResponse('').content,
        // A job's file or a hub attachment, under its own type.
        ...bytesResponse('', '*/*').content,
      },
    },
  };
}

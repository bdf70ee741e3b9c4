import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** `Secure` as a cookie attribute (a name or value that merely contains the word does not count). */
const SECURE_ATTRIBUTE = /;\s*secure\s*(;|$)/i;

/** One Set-Cookie value with `Secure` added when it lacks it. */
export function withSecure(setCookie: string): string {
  return SECURE_ATTRIBUTE.test(setCookie) ? setCookie : `${setCookie}; Secure`;
}

/**
 * Every cookie the console hands a browser that reached it over HTTPS is `Secure`. The session cookie is the identity
 * service's, relayed by the proxy; that service marks it `Secure` when its own origin (AUTHLIB_URL) is HTTPS or not a
 * loopback host, but it cannot know the console's: a console on https://console.example.com in front of an identity
 * service on http://127.0.0.1 would otherwise hand out a session cookie that also travels over plain http. Over plain
 * http (a loopback console under `npm start`) the cookies are left as they are, since a browser refuses a `Secure`
 * cookie from an http page. "Over HTTPS" is the connection's, or X-Forwarded-Proto from a trusted proxy hop
 * (TRUST_PROXY_HOPS), as Fastify's `request.protocol` reads it.
 */
export function registerSecureCookies(app: FastifyInstance): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.protocol !== 'https') return payload;
    const current = reply.getHeader('set-cookie');
    if (current === undefined) return payload;
    const values = (Array.isArray(current) ? current : [current]).map((value) => withSecure(String(value)));
    // Fastify appends to an existing Set-Cookie, so the old values go first.
    reply.removeHeader('set-cookie');
    reply.header('set-cookie', values);
    return payload;
  });
}

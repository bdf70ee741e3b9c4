import type { FastifyPluginAsync } from 'fastify';
import { forward, identityHeaders, pathAfter, proxiedResponses, rawBody } from '../proxy';
import type { Upstream } from '../upstream';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The identity service's browser-facing routes, passed through with status and body unchanged so its own refusals
 * (429 after ten wrong passwords, 403 `self_change_blocked`…) reach the page: `/api/auth/*` (sign-in, the OIDC
 * redirect and callback, session, sign-out; cookies both ways), `/api/admin/*` → `/admin/*`, `/api/me/budget` →
 * `/me/budget` and `/api/people` → `/people`. The identity service checks the session and the admin role itself on each of them.
 */
export function identityProxyRoutes(identity: Upstream): FastifyPluginAsync {
  return async (app) => {
    const mounts: Array<{ browser: string; upstream: string; exact?: boolean }> = [
      { browser: '/api/auth', upstream: '/api/auth' },
      { browser: '/api/admin', upstream: '/admin' },
      { browser: '/api/me/budget', upstream: '/me/budget', exact: true },
      // Names for the ids on approvals, answers and tasks (docs/console.md, "Needs you").
      { browser: '/api/people', upstream: '/people', exact: true },
    ];
    for (const mount of mounts) {
      app.route({
        method: [...METHODS],
        url: mount.exact ? mount.browser : `${mount.browser}/*`,
        schema: { response: proxiedResponses('identity service') },
        handler: async (request, reply) => {
          const { path, search } = pathAfter(request, mount.browser);
          return forward(reply, identity, {
            method: request.method,
            path: `${mount.upstream}${path}${search}`,
            headers: identityHeaders(request),
            body: rawBody(request),
          });
        },
      });
    }
  };
}

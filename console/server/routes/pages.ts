import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bytesResponse, pageResponse, redirectResponse } from '../../../http/body-schemas';
import { errorPage } from '../error-page';
import { ConsoleRefusal, preflight } from '../preflight';
import type { Upstream } from '../upstream';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A page of the web app: its errors are HTML pages, not JSON. */
    consolePage?: boolean;
  }
}

/** Pages anyone may open: signing in and the pending-approval landing. */
export const OPEN_PAGES = ['/login', '/pending'] as const;

/** Pages behind the optimistic gate: without the session cookie they redirect to `/login?next=<path>`. */
export const GATED_PAGES = [
  '/',
  '/runs/new',
  '/workflows',
  '/workflows/:id',
  '/jobs/:id',
  '/inbox',
  '/approvals',
  '/knowledge',
  '/models',
  '/admin',
  '/admin/projects/:org/:slug/policy',
  '/budget',
  '/forbidden',
  '/not-found',
] as const;

export interface PageOptions {
  webDir: string;
  identity: Upstream;
  sessionCookie: string;
  /** The identity service's AUTHLIB_COOKIE_DOMAIN, when known: a host outside it can never see the session. */
  cookieDomain?: string;
}

export function hasCookie(request: FastifyRequest, name: string): boolean {
  const header = request.headers.cookie;
  if (!header) return false;
  return header.split(';').some((pair) => {
    const eq = pair.indexOf('=');
    return eq > 0 && pair.slice(0, eq).trim() === name && pair.slice(eq + 1).trim() !== '';
  });
}

/** `localhost` is the identity service's host-only cookie (any local host and port sees it). */
export function hostUnderDomain(host: string | undefined, domain: string | undefined): boolean {
  if (!domain || domain === 'localhost' || !host) return true;
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  const parent = domain.replace(/^\./, '').toLowerCase();
  return hostname === parent || hostname.endsWith(`.${parent}`);
}

/**
 * The built files of the single-page app, at the root scope (its `sendFile` serves the not-found page too): hashed
 * assets cached for a year, everything else revalidated.
 */
export async function registerStatic(app: FastifyInstance, webDir: string): Promise<void> {
  // The plugin's one route (`/*`) takes no schema option: its success is declared here, as the route is added.
  app.addHook('onRoute', (route) => {
    if (route.url !== '/*') return;
    route.schema = {
      ...route.schema,
      response: { 200: bytesResponse('a file of the web app, under its file type (JS, CSS, an image…)', '*/*') },
    };
  });
  await app.register(fastifyStatic, {
    root: webDir,
    index: false,
    // The cache policy is set below, per file, instead of the plugin's one max-age for everything.
    cacheControl: false,
    // A request for a missing file falls through to the console's not-found handler.
    wildcard: true,
    // The web app's files are part of the console's surface: listed in its OpenAPI document like any route.
    schemaHide: false,
    setHeaders: (res, filePath) => {
      const immutable = filePath.startsWith(path.join(webDir, 'assets') + path.sep);
      res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

/**
 * index.html for every page route. Gated pages need the session cookie (else 302 to sign-in); with it, one preflight
 * confirms the session is live and the identity service reachable, so a stale cookie goes to sign-in and an
 * unreachable service shows its network error code instead of a page that cannot work.
 */
export function registerPages(
  app: FastifyInstance,
  options: PageOptions,
): { notFound: (reply: FastifyReply) => FastifyReply } {
  const indexFile = path.join(options.webDir, 'index.html');
  const sendIndex = (reply: FastifyReply, status = 200) => {
    if (!fs.existsSync(indexFile)) {
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .send(
          errorPage({
            status: 503,
            title: 'The console is not built',
            code: 'web_app_not_built',
            message: `No web app at ${options.webDir}: run \`npm run build\` (or set CONSOLE_WEB_DIR).`,
          }),
        );
    }
    return reply.code(status).header('cache-control', 'no-cache').sendFile('index.html');
  };

  const page = pageResponse("the web app's index.html, which renders the page");
  for (const url of OPEN_PAGES) {
    app.get(url, { config: { consolePage: true }, schema: { response: { 200: page } } }, async (_request, reply) =>
      sendIndex(reply),
    );
  }

  const gated = {
    config: { consolePage: true },
    schema: {
      response: {
        200: page,
        302: redirectResponse('no live session: to /login?next=<this page>'),
        // A deployment fault, not a request's: the page names the fix.
        500: pageResponse("the console's host is not under the session cookie's domain (AUTHLIB_COOKIE_DOMAIN)"),
      },
    },
  };
  for (const url of GATED_PAGES) {
    app.get(url, gated, async (request, reply) => {
      if (!hasCookie(request, options.sessionCookie)) {
        if (!hostUnderDomain(request.headers.host, options.cookieDomain)) {
          return reply
            .code(500)
            .type('text/html; charset=utf-8')
            .send(
              errorPage({
                status: 500,
                title: 'This address cannot hold a session',
                code: 'cookie_domain_mismatch',
                message: `The console is open at ${request.headers.host ?? 'an unknown host'}, which is not under the session cookie's domain ${options.cookieDomain}: sign-in would never be seen here. Open the console on a host under ${options.cookieDomain}, or fix AUTHLIB_COOKIE_DOMAIN.`,
              }),
            );
        }
        return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 302);
      }
      try {
        await preflight(options.identity, request, reply);
      } catch (err) {
        if (err instanceof ConsoleRefusal && err.statusCode === 401) {
          return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 302);
        }
        throw err;
      }
      return sendIndex(reply);
    });
  }

  // A path that is no page, no file and no API: the app shows its own not-found page, with the right status.
  return { notFound: (reply: FastifyReply) => sendIndex(reply, 404) };
}

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { createBaseApp, noSuchRoute } from '../../http/base-app';
import { AppError, handleError, httpAnswer } from '../../http/errors';
import { instrumentHttp } from '../../metrics/http';
import type { ApiInfo } from '../../http/openapi';
import type { ConsoleConfig } from './config';
import { errorPage } from './error-page';
import { ConsoleLogController } from './log-controller';
import { ConsoleRefusal } from './preflight';
import { consoleRoutes } from './routes/console';
import { identityProxyRoutes } from './routes/identity-proxy';
import { ingestProxyRoutes } from './routes/ingest-proxy';
import { registerPages, registerStatic } from './routes/pages';
import { registerSecureCookies } from './secure-cookies';
import { registerSecurityHeaders } from './security-headers';
import { Upstream, UpstreamUnreachableError } from './upstream';
import { named } from '../../http/named-plugin';

const CONSOLE_API: ApiInfo = {
  title: 'Keel console backend-for-frontend',
  description:
    "The web app's calls: its own routes, and the identity service and ingest API behind the session cookie (`/api/...`).",
};

/** Bodies the console passes on: prompts (32,000 characters) and admin changes fit well inside. */
const PROXY_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Builds the console (web app and backend-for-frontend) without listening. It holds no database: every decision about
 * a session is the identity service's, every job and workflow is the ingest API's (docs/console.md).
 */
export async function buildConsoleApp(
  config: ConsoleConfig,
  options: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  const identity = new Upstream('identity service', config.IDENTITY_URL, config.UPSTREAM_CONNECT_TIMEOUT_MS);
  const ingest = new Upstream('ingest API', config.INGEST_API_URL, config.UPSTREAM_CONNECT_TIMEOUT_MS);

  // Set once the web app is registered; the not-found handler has to exist before that.
  const pages: { notFound?: (reply: FastifyReply) => FastifyReply } = {};
  const unrouted = (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // The API answers JSON; a missing file (a name with an extension) is a plain 404; any other path is a page.
    if (pathname.startsWith('/api/') || /\.[a-z0-9]+$/i.test(pathname) || request.method !== 'GET' || !pages.notFound)
      return noSuchRoute(request, reply);
    return pages.notFound(reply);
  };
  const app = createBaseApp(
    CONSOLE_API,
    {
      trustProxy: (_address: string, hop: number) => hop < config.TRUST_PROXY_HOPS,
      // A browser closing a stream is no warning (log-controller.ts).
      logController: new ConsoleLogController(),
      ...options,
    },
    unrouted,
  );
  instrumentHttp(app, 'console');
  // Before any route, so every answer (pages, assets, the API, refusals) carries them.
  await registerSecurityHeaders(app);
  registerSecureCookies(app);
  app.addHook('onClose', async () => {
    await Promise.all([identity.close(), ingest.close()]);
  });

  app.addHook('onRequest', refuseCrossOrigin);
  await registerStatic(app, config.CONSOLE_WEB_DIR);
  // Plugins are named for fastify's `printPlugins()` and start-up errors (http/named-plugin.ts).
  await app.register(
    named('console', async (scope) => {
      scope.setErrorHandler(consoleErrorHandler);
      await scope.register(named('consoleRoutes', consoleRoutes(config, identity)));
      await scope.register(
        named('console proxies', async (proxies) => {
          // Bodies pass through as bytes: the upstream parses and refuses them in its own words.
          proxies.removeAllContentTypeParsers();
          proxies.addContentTypeParser(
            '*',
            { parseAs: 'buffer', bodyLimit: PROXY_BODY_LIMIT_BYTES },
            (_req, body, done) => done(null, body),
          );
          await proxies.register(named('identityProxyRoutes', identityProxyRoutes(identity)));
          await proxies.register(
            named('ingestProxyRoutes', ingestProxyRoutes(identity, ingest, config.CONSOLE_API_TOKEN)),
          );
        }),
      );
      pages.notFound = registerPages(scope, {
        webDir: config.CONSOLE_WEB_DIR,
        identity,
        sessionCookie: config.SESSION_COOKIE_NAME,
        cookieDomain: config.AUTHLIB_COOKIE_DOMAIN,
      }).notFound;
    }),
  );
  return app;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing call must come from the console's own pages. The session cookie is SameSite=Lax, which still lets
 * a sibling host of the same site (another app under the cookie domain) send it; a browser always names the page's
 * origin on such a request, so one from another host is refused here, before any upstream sees it.
 */
async function refuseCrossOrigin(request: FastifyRequest): Promise<void> {
  if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const host = URL.canParse(origin) ? new URL(origin).host : undefined;
  if (host !== request.headers.host) {
    throw new AppError(
      403,
      'cross_origin_refused',
      `a ${request.method} from ${origin} is not accepted by this console`,
    );
  }
}

/**
 * The API's error handler for JSON, plus: a refusal carries its own body (402 with the budget); on a page route an
 * error is an HTML page that names it, the network code of an unreachable service included.
 */
function consoleErrorHandler(err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (request.routeOptions.config?.consolePage) {
    const unreachable = err instanceof UpstreamUnreachableError;
    const answer = httpAnswer(err);
    const status = answer?.status ?? 500;
    if (!answer) request.log.error({ err }, 'page failed');
    else if (unreachable) request.log.warn({ code: err.networkCode, upstream: err.upstream }, err.message);
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(
        errorPage({
          status,
          title: unreachable ? `The ${err.upstream} is unreachable` : 'The console could not open this page',
          code: unreachable ? err.networkCode : (answer?.code ?? 'internal'),
          message: answer?.message ?? 'internal error',
        }),
      );
  }
  if (err instanceof ConsoleRefusal) return reply.code(err.statusCode).send(err.body());
  // The operator's view of an outage: the browser gets the same code in its error body.
  if (err instanceof UpstreamUnreachableError) {
    request.log.warn({ code: err.networkCode, upstream: err.upstream }, err.message);
  }
  return handleError(err, request, reply);
}

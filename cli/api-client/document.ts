import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api/deps';
import { buildApp } from '../../api/app';
import { buildAuthApp, type AuthDeps } from '../../auth/app';
import { authSettings } from '../../auth/config';
import { buildConsoleApp } from '../../console/server/app';
import { consoleEnv } from '../../console/server/config';

/**
 * A dependency of a service built only to read its route table: routes keep closures over their dependencies and use
 * them per request, so building passes them around but never calls them. Reading a field gives another such
 * stand-in; calling one fails loudly, as a bug in building the document.
 */
function unused(name: string): never {
  const fail = () => {
    throw new Error(`the OpenAPI document needs no dependency, yet ${name} was called while building it`);
  };
  return new Proxy(fail, {
    get: (_target, key) => (key === 'then' ? undefined : unused(`${name}.${String(key)}`)),
    apply: fail,
  }) as never;
}

/** `settings` as given, any other field a stand-in that fails when used. */
function standIn<T extends object>(name: string, settings: Partial<T>): T {
  return new Proxy(settings as T, {
    get: (target, key) => (Object.hasOwn(target, key) ? target[key as keyof T] : unused(`${name}.${String(key)}`)),
  });
}

/** What `read` finds in a service once `build` has built it and its plugins have loaded; the service is closed after. */
export async function readBuilt<T>(
  build: () => Promise<FastifyInstance>,
  read: (app: FastifyInstance) => T,
): Promise<T> {
  const app = await build();
  try {
    await app.ready();
    return read(app);
  } finally {
    await app.close();
  }
}

const documentOf = (build: () => Promise<FastifyInstance>): Promise<unknown> =>
  readBuilt(build, (app) => app.swagger());

/** The ingest API built only to read it (its routes, its plugins), without a database or a listening port. */
export function ingestApiToRead(): Promise<FastifyInstance> {
  // The settings the app reads while registering routes (the SSE plugin's heartbeat) or when ready (scheduling off: no
  // slot sweeper).
  return buildApp(standIn<ApiDeps>('deps', { heartbeatMs: 15_000, scheduling: undefined }), { logger: false });
}

/** The ingest API's OpenAPI document, as `GET /openapi.json` serves it. */
export function ingestApiDocument(): Promise<unknown> {
  return documentOf(ingestApiToRead);
}

/** Placeholder settings: only their shape matters, nothing is reached while the routes register. */
const LOCAL = 'http://127.0.0.1:1';

/**
 * The identity service built only to read it, with every optional route on (the OIDC provider, the internal
 * budget-policy endpoint), so its document lists all it can serve.
 */
export function identityToRead(): Promise<FastifyInstance> {
  const env = authSettings.parse({
    DATABASE_URL: 'postgres://127.0.0.1:1/none',
    AUTHLIB_SECRET: 'x'.repeat(32),
    AUTHLIB_URL: LOCAL,
    AUTHLIB_COOKIE_DOMAIN: 'localhost',
    TRUSTED_ORIGINS: LOCAL,
    IDP_CLIENT_ID: 'document',
    IDP_CLIENT_SECRET: 'document',
    IDP_ISSUER_URL: LOCAL,
    ADMIN_EMAILS: '',
    INTERNAL_API_TOKEN: 'x'.repeat(32),
  });
  // No Redis: the sign-in limit and the revoked-user list then live in memory.
  return buildAuthApp(standIn<AuthDeps>('deps', { env, redis: undefined }), { logger: false });
}

/** The identity service's OpenAPI document. */
export function identityDocument(): Promise<unknown> {
  return documentOf(identityToRead);
}

/** The console built only to read it (its own routes, the proxies and the pages). */
export function consoleToRead(): Promise<FastifyInstance> {
  const config = consoleEnv.parse({ IDENTITY_URL: LOCAL, INGEST_API_URL: LOCAL, CONSOLE_API_TOKEN: 'x'.repeat(16) });
  return buildConsoleApp(config, { logger: false });
}

/** The console's OpenAPI document. */
export function consoleDocument(): Promise<unknown> {
  return documentOf(consoleToRead);
}

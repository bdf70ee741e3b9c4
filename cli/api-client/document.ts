import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../../api/deps';
import { buildApp } from '../../api/app';

/**
 * A dependency of the ingest API built only to read its route table: routes keep closures over their dependencies and
 * use them per request, so building passes them around but never calls them. Reading a field gives another such
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

/** The settings the app reads while registering routes (the SSE plugin's heartbeat). */
const settings: Partial<ApiDeps> = { heartbeatMs: 15_000 };
const deps = new Proxy(settings as ApiDeps, {
  get: (target, key) => (Object.hasOwn(target, key) ? target[key as keyof ApiDeps] : unused(`deps.${String(key)}`)),
});

/** The ingest API's OpenAPI document, as `GET /openapi.json` serves it, without a database or a listening port. */
export async function ingestApiDocument(): Promise<unknown> {
  const app: FastifyInstance = await buildApp(deps, { logger: false });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}

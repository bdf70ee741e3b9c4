/**
 * Typed clients of Keel's services, each typed from the service's OpenAPI document (./schema.ts for the ingest API,
 * ./identity-schema.ts, ./console-schema.ts): a path, its parameters, the body it takes and the bodies it answers are
 * checked by the compiler against the routes as they are. The CLI calls the ingest API with a token; the identity
 * service and the console take a session cookie, as a browser holds it.
 */
import createClient from 'openapi-fetch';
import type { paths as consolePaths } from './console-schema';
import type { paths as identityPaths } from './identity-schema';
import type { paths } from './schema';

/** A refusal or failure of the API, with its status and the `code` of its error body. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type ApiClient = ReturnType<typeof createClient<paths>>;

export function apiClient(baseUrl: string, token: string): ApiClient {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
}

/** The identity service as a signed-in browser calls it: `cookie` is the session cookie (`keel_session=…`). */
export function identityClient(baseUrl: string, cookie: string) {
  return createClient<identityPaths>({ baseUrl, headers: { cookie } });
}

/** The console's backend-for-frontend with a session cookie. */
export function consoleClient(baseUrl: string, cookie: string) {
  return createClient<consolePaths>({ baseUrl, headers: { cookie } });
}

/**
 * The body of a 2xx answer, or an ApiError carrying the `{ error: { code, message } }` of any other. openapi-fetch gives
 * `data` on success and `error` (the parsed body) otherwise.
 */
export function dataOf<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  const body = result.error as { error?: { code?: string; message?: string } } | string | undefined;
  const code = (typeof body === 'object' && body?.error?.code) || 'http_error';
  const message =
    (typeof body === 'object' && body?.error?.message) ||
    (typeof body === 'string' && body) ||
    result.response.statusText;
  throw new ApiError(result.response.status, code, `${result.response.status} ${code}: ${message}`);
}

/**
 * Each service's OpenAPI document, generated from its route schemas (the zod schemas every route declares), served at
 * `/openapi.json`, with a rendered reference at `/docs` whose assets come from the installed package (docs/api-reference.md).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PREFIX = '/docs';

/** The body of every error this service answers (http/errors.ts); extra fields (a refusal's budget) may follow. */
const ErrorBody = z.toJSONSchema(z.looseObject({ error: z.looseObject({ code: z.string(), message: z.string() }) }), {
  target: 'openapi-3.0',
});

const UNDESCRIBED = 'success; the body is not described by a schema';

export interface ApiInfo {
  title: string;
  description: string;
  /**
   * Named schemas of the service's contract that no route body declares (what a stream's messages carry), listed in
   * the document's `components.schemas` so generated clients type them too.
   */
  schemas?: Record<string, z.ZodType>;
}

/**
 * Registers the document and the reference; call before any route, so every route is seen. Every operation gets the
 * error responses of the shared error handler (`4XX`, `5XX`) unless it declares its own for a status: the handler
 * answers validation, authentication and rate-limit errors on every route, declared or not.
 */
export const openApiPlugin = fp<ApiInfo>(
  async (app, info) => {
    const table: RouteEntry[] = [];
    app.decorate('routeTable', table);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) table.push({ method, url: route.url });
      // The document and its reference describe the API to anyone about to get a token: no token needed to read them.
      if (route.url === OPENAPI_PATH || route.url.startsWith(DOCS_PREFIX)) {
        route.config = { ...(route.config as object), public: true };
      }
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: info.title, description: info.description, version: '1' },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
          ...(info.schemas && { schemas: componentSchemas(info.schemas) }),
        },
      },
      transform: (document) => {
        const transformed = jsonSchemaTransform(document);
        // A route without any schema still answers errors in the one shape.
        transformed.schema ??= {};
        const schema = transformed.schema as { response?: Record<string, unknown>; hide?: boolean };
        if (schema.hide) return transformed;
        const declared = schema.response !== undefined && Object.keys(schema.response).length > 0;
        schema.response = { ...schema.response };
        for (const [status, response] of Object.entries(schema.response)) {
          // A body-less response (`redirectResponse`): a JSON schema of type null is how @fastify/swagger omits content.
          const { description, content } = response as { description?: string; content?: object };
          if (content !== undefined && Object.keys(content).length === 0) {
            schema.response[status] = { type: 'null', description };
          }
        }
        for (const range of ['4XX', '5XX']) schema.response[range] ??= { description: 'an error', ...ErrorBody };
        // A route that declares no response at all still answers something on success: the document says so without
        // inventing a shape, and `undescribedSuccesses` reports it, so a new route must declare its body. A route that
        // declares responses but no 2xx or 3xx only refuses (a retired endpoint, sign-up): it gets no success.
        if (!declared) schema.response['2XX'] = { description: UNDESCRIBED };
        return transformed;
      },
      // This plugin writes OpenAPI (the `openapi` option above), never Swagger 2.0.
      transformObject: (document) => onlyOpenApi30Operations('openapiObject' in document ? document.openapiObject : {}),
    });
    await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
    app.get(OPENAPI_PATH, { schema: { hide: true } }, () => app.swagger());
  },
  { name: 'keel-openapi' },
);

/** The named schemas as JSON schemas of OpenAPI 3.0 (the document's version). */
function componentSchemas(schemas: Record<string, z.ZodType>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, z.toJSONSchema(schema, { target: 'openapi-3.0' })]),
  );
}

/**
 * The operations an OpenAPI 3.0 path item can hold. Fastify's `app.all` also registers QUERY, which @fastify/swagger
 * writes as a `query` operation (only OpenAPI 3.2 path items have one), and a method added with `addHttpMethod` would
 * be written under its own name: validators refuse such a document, so those operations are left out of it.
 */
const OPENAPI_30_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** A 3.0 path item's fixed fields that are not operations. */
const PATH_ITEM_FIELDS = new Set(['$ref', 'summary', 'description', 'servers', 'parameters']);

function onlyOpenApi30Operations<T extends { paths?: object }>(document: T): T {
  for (const item of Object.values(document.paths ?? {}) as Record<string, unknown>[]) {
    for (const key of Object.keys(item)) {
      if (!OPENAPI_30_METHODS.has(key) && !PATH_ITEM_FIELDS.has(key)) delete item[key];
    }
  }
  return document;
}

export interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after the OpenAPI plugin, as Fastify holds it (`/v1/jobs/:id`). */
    routeTable: RouteEntry[];
  }
}

/** Fastify's `/v1/jobs/:id/files/*` as OpenAPI names it: `/v1/jobs/{id}/files/{*}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');
}

/**
 * The routes of `app` its OpenAPI document does not list, as `METHOD path`. HEAD (Fastify's own twin of each GET), the
 * CORS preflight and the document's and reference's own routes are not operations of the service.
 */
export function undocumentedRoutes(app: { routeTable: RouteEntry[]; swagger(): unknown }): string[] {
  const paths = (app.swagger() as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  return (
    app.routeTable
      .filter(({ method, url }) => method !== 'HEAD' && url !== OPENAPI_PATH && !url.startsWith(DOCS_PREFIX))
      // A method OpenAPI 3.0 has no operation for (QUERY, from `app.all`) cannot be in the document.
      .filter(({ method }) => OPENAPI_30_METHODS.has(method.toLowerCase()))
      // The CORS plugin's preflight answer for every path (`OPTIONS *`) is a browser's handshake, not an operation.
      .filter(({ method, url }) => !(method === 'OPTIONS' && url === '*'))
      .filter(({ method, url }) => paths[openApiPath(url)]?.[method.toLowerCase()] === undefined)
      .map(({ method, url }) => `${method} ${url}`)
  );
}

interface DocumentedOperation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}

const OPERATION_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** A schema that says something of a body: more than a description. */
function describes(schema: object | undefined): boolean {
  return schema !== undefined && Object.keys(schema).some((key) => key !== 'description' && key !== 'title');
}

/**
 * The operations of an OpenAPI document, as `METHOD path`, that may succeed (declare a 2xx, or no outcome at all)
 * without a schema of the body they then answer. A redirect (3xx) has no body to describe; an operation that declares
 * only refusals never succeeds.
 */
export function undescribedSuccesses(document: unknown): string[] {
  const found: string[] = [];
  const { paths } = document as { paths?: Record<string, Record<string, DocumentedOperation>> };
  for (const [path, operations] of Object.entries(paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!OPERATION_METHODS.has(method)) continue;
      const successes = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
      const described = successes.every(
        ([status, response]) =>
          // 204: no body, by definition.
          status === '204' || Object.values(response.content ?? {}).some((media) => describes(media.schema)),
      );
      if (!described) found.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return found;
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearanceOf } from '../../kb/clearance';
import { getDocument, linksOf, listDomains, listScope, nearestDocuments } from '../../kb/documents';
import { KhIdSchema } from '../../kb/kh-id';
import { readableLevels, SensitivitySchema } from '../../kb/sensitivity';
import { readerOrg } from '../../kb/space';
import type { ApiDeps } from '../deps';
import { AppError } from '../../http/errors';
import { NotFound } from '../../refusals/refusal';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';
import { hubOf } from './kb';

const DocumentSummarySchema = z.object({
  kh_id: z.string(),
  path: z.string(),
  title: z.string(),
  sensitivity: SensitivitySchema,
  tags: z.array(z.string()),
  source: z.string(),
  updated_at: z.string(),
});

/** The atlas cursor: URL-safe base64 (no padding) of the last path of the previous page. */
function encodeCursor(path: string): string {
  return Buffer.from(path, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  const path = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!path || Buffer.from(path, 'utf8').toString('base64url') !== cursor) {
    throw new AppError(400, 'invalid_request', 'cursor: not a cursor from a previous page');
  }
  return path;
}

export function atlasRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 503: ErrorSchema };

    app.get(
      '/v1/atlas/domains',
      {
        schema: {
          response: {
            200: z.object({
              sources: z.array(z.object({ source: z.string(), documents: z.number(), chunks: z.number() })),
              tags: z.array(z.object({ tag: z.string(), documents: z.number() })),
            }),
            ...errors,
          },
        },
      },
      async (request) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const clearance = await clearanceOf(deps.pool, principal);
        return listDomains(hub, readableLevels(clearance), readerOrg(principal));
      },
    );

    app.get(
      '/v1/atlas/scope',
      {
        schema: {
          querystring: z
            .object({
              source: z.string().min(1).max(100).optional(),
              tag: z.string().min(1).max(100).optional(),
              limit: z.coerce.number().int().min(1).max(100).default(50),
              cursor: z.string().min(1).max(2000).optional(),
            })
            .refine((q) => q.source !== undefined || q.tag !== undefined, 'name a domain: source or tag'),
          response: {
            200: z.object({ documents: z.array(DocumentSummarySchema), next_cursor: z.string().nullable() }),
            ...errors,
          },
        },
      },
      async (request) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const clearance = await clearanceOf(deps.pool, principal);
        const { source, tag, limit, cursor } = request.query;
        const rows = await listScope(hub, {
          source,
          tag,
          limit,
          levels: readableLevels(clearance),
          org: readerOrg(principal),
          after: cursor ? decodeCursor(cursor) : undefined,
        });
        return {
          documents: rows.map((r) => ({ ...r, updated_at: r.updated_at.toISOString() })),
          next_cursor: rows.length === limit ? encodeCursor(rows[rows.length - 1]!.path) : null,
        };
      },
    );

    app.get(
      '/v1/atlas/node/:kh_id',
      {
        schema: {
          params: z.object({ kh_id: KhIdSchema }),
          querystring: z.object({ neighbours: z.coerce.number().int().min(0).max(50).default(8) }),
          response: {
            200: z.object({
              document: DocumentSummarySchema.extend({ source_url: z.string().nullable(), chunks: z.number() }),
              neighbours: z.array(
                z.object({ kh_id: z.string(), path: z.string(), title: z.string(), similarity: z.number() }),
              ),
              links: z.object({
                outgoing: z.array(
                  z.object({
                    href: z.string(),
                    kh_id: z.string().nullable(),
                    path: z.string().nullable(),
                    title: z.string().nullable(),
                  }),
                ),
                incoming: z.array(z.object({ kh_id: z.string(), path: z.string(), title: z.string() })),
              }),
            }),
            ...errors,
          },
        },
      },
      async (request) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const levels = readableLevels(await clearanceOf(deps.pool, principal));
        const org = readerOrg(principal);
        const doc = await getDocument(hub, request.params.kh_id, levels, org);
        if (!doc) throw new NotFound(`document ${request.params.kh_id}`);
        const chunks = await hub.pool.query<{ n: string }>('SELECT count(*) AS n FROM kb_chunks WHERE kh_id = $1', [
          doc.kh_id,
        ]);
        const neighbours =
          request.query.neighbours > 0
            ? await nearestDocuments(hub, doc.kh_id, levels, org, request.query.neighbours)
            : [];
        return {
          document: {
            kh_id: doc.kh_id,
            path: doc.path,
            title: doc.title,
            sensitivity: doc.sensitivity,
            tags: doc.tags,
            source: doc.source,
            source_url: doc.source_url,
            updated_at: doc.updated_at.toISOString(),
            chunks: Number(chunks.rows[0]!.n),
          },
          neighbours,
          links: await linksOf(hub, doc, levels, org),
        };
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearanceOf } from '../../kb/clearance';
import { getDocument } from '../../kb/documents';
import { KbUnavailableError } from '../../kb/errors';
import { deleteDocument, editDocument, readHubFile, writeHubFile } from '../../kb/files';
import { HubFilePathSchema, HubPathSchema } from '../../kb/hub-path';
import type { KnowledgeHub } from '../../kb/hub';
import { KhIdSchema } from '../../kb/kh-id';
import { readStoredFile } from '../../kb/linked-files';
import { searchKnowledge } from '../../kb/search';
import { readableLevels, SensitivitySchema } from '../../kb/sensitivity';
import { readerOrg } from '../../kb/space';
import type { ApiDeps } from '../deps';
import { NotFound } from '../../refusals/refusal';
import { principalOf } from '../plugins/principal';
import { bytesResponse } from '../../http/body-schemas';
import { ErrorSchema } from './chat';

/** Largest hub file accepted by POST /v1/kb/file and /v1/kb/edit (the API's body limit is 256 KiB). */
const MAX_FILE_CHARS = 200_000;

export const KbQueryBodySchema = z.strictObject({
  query: z.string().trim().min(1).max(2000),
  k: z.number().int().min(1).max(50).default(8),
  filters: z
    .strictObject({
      tags: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
      sensitivity: z.array(SensitivitySchema).min(1).optional(),
      source: z.array(z.string().min(1).max(100)).min(1).max(20).optional(),
    })
    .optional(),
});
export type KbQueryBody = z.infer<typeof KbQueryBodySchema>;

export const KbHitSchema = z.object({
  chunk_id: z.string(),
  kh_id: z.string(),
  path: z.string(),
  title: z.string(),
  heading: z.string(),
  snippet: z.string(),
  score: z.number(),
  sensitivity: SensitivitySchema,
  tags: z.array(z.string()),
  source: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
});

export const KbQueryResponseSchema = z.object({
  results: z.array(KbHitSchema),
  embedder: z.object({ provider: z.string(), model: z.string(), dims: z.number().int() }),
});

export const KbDocSchema = z.object({
  kh_id: z.string(),
  /** `"shared"`, or the org the document belongs to. */
  space: z.union([z.literal('shared'), z.object({ org: z.string() })]),
  path: z.string(),
  title: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  markdown: z.string(),
  sensitivity: SensitivitySchema,
  tags: z.array(z.string()),
  source: z.string(),
  source_url: z.string().nullable(),
  content_hash: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

const WriteResultSchema = z.object({
  path: z.string(),
  kh_id: z.string(),
  content_hash: z.string(),
  status: z.enum(['indexed', 'unchanged']),
  chunks: z.number().int(),
});

const Hash = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 as 64 lowercase hex digits (content_hash)');

/** The hub of this API, or 503 when the process runs without one. */
export function hubOf(deps: ApiDeps): KnowledgeHub {
  if (!deps.kb) throw new KbUnavailableError('this API runs without a knowledge hub');
  if (deps.kb.unavailable) throw new KbUnavailableError(deps.kb.unavailable);
  return deps.kb;
}

function writeView(written: Awaited<ReturnType<typeof writeHubFile>>) {
  const { result } = written;
  return {
    path: written.path,
    kh_id: written.kh_id,
    content_hash: written.content_hash,
    status: result.status === 'indexed' ? ('indexed' as const) : ('unchanged' as const),
    chunks: result.status === 'indexed' ? result.chunks : 0,
  };
}

export function kbRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 503: ErrorSchema };

    app.post(
      '/v1/kb/query',
      { schema: { body: KbQueryBodySchema, response: { 200: KbQueryResponseSchema, ...errors } } },
      async (request) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const clearance = await clearanceOf(deps.pool, principal);
        const { query, k, filters } = request.body;
        const levels = readableLevels(clearance, filters?.sensitivity);
        const results = await searchKnowledge(hub, { query, k, levels, org: readerOrg(principal), filters });
        return { results, embedder: await hub.ready() };
      },
    );

    app.get(
      '/v1/kb/doc/:kh_id',
      { schema: { params: z.object({ kh_id: KhIdSchema }), response: { 200: KbDocSchema, ...errors } } },
      async (request) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const clearance = await clearanceOf(deps.pool, principal);
        const doc = await getDocument(hub, request.params.kh_id, readableLevels(clearance), readerOrg(principal));
        if (!doc) throw new NotFound(`document ${request.params.kh_id}`);
        const { body, created_at, updated_at, org_id, ...rest } = doc;
        return {
          ...rest,
          space: org_id === null ? ('shared' as const) : { org: org_id },
          markdown: body,
          created_at: created_at.toISOString(),
          updated_at: updated_at.toISOString(),
        };
      },
    );

    app.delete(
      '/v1/kb/doc/:kh_id',
      {
        schema: {
          params: z.object({ kh_id: KhIdSchema }),
          querystring: z.object({ base_hash: Hash.optional() }),
          response: {
            200: z.object({ kh_id: z.string(), path: z.string(), status: z.literal('deleted') }),
            403: ErrorSchema,
            ...errors,
          },
        },
      },
      async (request) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const clearance = await clearanceOf(deps.pool, principal);
        const deleted = await deleteDocument(hub, {
          kh_id: request.params.kh_id,
          expectHash: request.query.base_hash,
          levels: readableLevels(clearance),
          caller: principal,
        });
        return { ...deleted, status: 'deleted' as const };
      },
    );

    app.get(
      '/v1/kb/file',
      {
        schema: {
          querystring: z.object({ path: HubPathSchema }),
          response: { 200: z.object({ path: z.string(), content: z.string(), content_hash: z.string() }), ...errors },
        },
      },
      async (request) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const clearance = await clearanceOf(deps.pool, principal);
        return readHubFile(hub, request.query.path, readableLevels(clearance), principal);
      },
    );

    app.get(
      '/v1/kb/attachment',
      // The body is the file's bytes under its stored type, which the JSON serializer never touches.
      {
        schema: {
          querystring: z.object({ path: HubFilePathSchema }),
          response: {
            200: bytesResponse("the attachment's bytes, under the type it was stored with", '*/*'),
            400: ErrorSchema,
            401: ErrorSchema,
            404: ErrorSchema,
            503: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const clearance = await clearanceOf(deps.pool, principal);
        const file = await readStoredFile(
          hub.pool,
          request.query.path,
          readableLevels(clearance),
          readerOrg(principal),
        );
        if (!file) throw new NotFound(`hub attachment ${request.query.path}`);
        // Attachments are whatever a page held (HTML and SVG included): never let a browser run them as this origin.
        return (
          reply
            .header('content-type', file.contentType)
            .header('content-security-policy', "sandbox; default-src 'none'")
            .header('x-content-type-options', 'nosniff')
            .header('etag', `"${file.sha256}"`)
            // The declared schemas are the error bodies; a 200 is raw bytes, which the serializer passes through.
            .send(file.bytes as never)
        );
      },
    );

    app.post(
      '/v1/kb/file',
      {
        schema: {
          body: z.strictObject({
            path: HubPathSchema,
            content: z.string().min(1).max(MAX_FILE_CHARS),
            base_hash: Hash.nullable().optional(),
            /** Where a new document goes: the token's org (default) or the shared space (admin tokens). */
            space: z.enum(['org', 'shared']).optional(),
          }),
          response: { 200: WriteResultSchema, 403: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const clearance = await clearanceOf(deps.pool, principal);
        const { path, content, base_hash, space } = request.body;
        return writeView(
          await writeHubFile(hub, { path, content, expectHash: base_hash, clearance, caller: principal, space }),
        );
      },
    );

    app.post(
      '/v1/kb/edit',
      {
        schema: {
          body: z
            .strictObject({
              kh_id: KhIdSchema,
              base_hash: Hash,
              body: z.string().max(MAX_FILE_CHARS).optional(),
              frontmatter: z.record(z.string().min(1).max(100), z.unknown()).optional(),
            })
            .refine(
              (b) => b.body !== undefined || b.frontmatter !== undefined,
              'an edit changes body, frontmatter or both',
            ),
          response: { 200: WriteResultSchema, 403: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        const hub = hubOf(deps);
        const principal = principalOf(request);
        const clearance = await clearanceOf(deps.pool, principal);
        return writeView(
          await editDocument(hub, request.body, { levels: readableLevels(clearance), clearance, caller: principal }),
        );
      },
    );
  };
}

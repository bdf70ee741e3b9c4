import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { consoleDocument, identityDocument, ingestApiDocument } from '../cli/api-client/document';
import { createBaseApp } from './base-app';
import { bytesResponse, redirectResponse } from './body-schemas';
import { undescribedSuccesses } from './openapi';

/** The parts of a document read here. */
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, object> }>>;
}

const Error = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

async function documentOf(register: (app: FastifyInstance) => void): Promise<Document> {
  const app = createBaseApp({ title: 'Keel probe', description: 'routes of a test' }, { logger: false });
  // As the services do: routes in a plugin, registered after the document's plugin has loaded.
  await app.register(async (scope) => register(scope));
  try {
    await app.ready();
    return app.swagger() as unknown as Document;
  } finally {
    await app.close();
  }
}

// Each service's document as `/openapi.json` serves it: every operation that can succeed says what its success is.
test.each([
  ['ingest API', ingestApiDocument],
  ['identity service', identityDocument],
  ['console', consoleDocument],
])('every operation of the %s that can succeed declares its success body', async (_name, document) => {
  expect(undescribedSuccesses(await document())).toEqual([]);
});

test('a route added without a success schema is reported; bytes, redirects and refusals are described', async () => {
  const document = await documentOf((app) => {
    app.get('/no-schema', async () => ({ anything: true }));
    app.get('/any-json', { schema: { response: { 200: z.unknown().describe('anything') } } }, async () => 1);
    app.get('/json', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));
    app.get('/file', { schema: { response: { 200: bytesResponse('bytes') } } }, async () => Buffer.from('x'));
    app.get('/away', { schema: { response: { 302: redirectResponse('elsewhere') } } }, (_r, reply) =>
      reply.redirect('/json', 302),
    );
    app.post('/refused', { schema: { response: { 403: Error } } }, (_r, reply) =>
      reply.code(403).send({ error: { code: 'closed', message: 'closed' } }),
    );
  });
  expect(undescribedSuccesses(document).sort()).toEqual(['GET /any-json', 'GET /no-schema']);
  // The redirect has no body in the document; the refusal has no success at all.
  expect(Object.keys(document.paths['/away']!.get!.responses['302']!)).toEqual(['description']);
  expect(Object.keys(document.paths['/refused']!.post!.responses).sort()).toEqual(['403', '4XX', '5XX']);
});

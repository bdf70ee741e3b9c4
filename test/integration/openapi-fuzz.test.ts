import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonSchema } from 'json-schema-faker' with { 'resolution-mode': 'import' };
import { distinct, drawRequests, fuzz, loadSampler, type OpenApiDocument } from './openapi-fuzz';

/**
 * The fuzzer's own checks, against a server that answers what its document does not say: a success in an undeclared
 * media type, a JSON success that misses a required field, and a success the document never described.
 */
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  await loadSampler();
  server = http.createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (path === '/text') response.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    else if (path === '/undescribed') response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    else if (path === '/fine') response.writeHead(200, { 'content-type': 'application/json' }).end('{"y":1}');
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{"x":1}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const json = (schema: JsonSchema) => ({ description: 'ok', content: { 'application/json': { schema } } });
const Y: JsonSchema = { type: 'object', required: ['y'], properties: { y: { type: 'number' } } };

test('a success outside the document is a schema violation; one that matches is not', async () => {
  const document: OpenApiDocument = {
    paths: {
      '/text': { get: { responses: { '200': json(Y) } } },
      '/missing-field': { get: { responses: { '200': json(Y) } } },
      '/undescribed': { get: { responses: { '2XX': json({ description: 'not described' }) } } },
      '/fine': { get: { responses: { '200': json(Y) } } },
    },
  };
  const report = await fuzz(drawRequests([{ name: 'probe', baseUrl, document, credentials: {} }], 2, 1), {
    concurrency: 2,
    timeoutMs: 5_000,
  });
  expect(report.requests).toBe(8);
  expect(distinct(report.schemaViolations)).toEqual([
    'probe GET /missing-field → 200: data must have required property \'y\'; body {"x":1}',
    'probe GET /text → 200: media type text/plain not among application/json',
    'probe GET /undescribed → 200: success body not described by a schema',
  ]);
});

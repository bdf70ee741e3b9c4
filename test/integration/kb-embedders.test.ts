import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmbedderUnavailableError } from '../../kb/errors';
import { createLocalEmbedder } from '../../kb/embedders/local';
import { offlineEmbed } from '../../kb/embedders/offline';
import { createTelemetryEmbedder } from '../../kb/embedders/telemetry';
import { indexPaths } from '../../kb/indexer';
import { khIdFor } from '../../kb/kh-id';
import { startFakeLocalEmbeddings, localEmbeddings } from '../fakes/fake-local-embeddings';
import { embedded, startFakeTelemetry } from '../fakes/fake-telemetry';
import type { ScriptedServer } from '../fakes/scripted-server';
import { createKbFixture, hubDoc, startKbApi } from './kb-fixture';

describe('the telemetry embedder (POST {TELEMETRY_URL}/v1/kb/embed)', () => {
  let telemetry: ScriptedServer<unknown>;
  const embedder = (overrides: { timeoutMs?: number; retries?: number } = {}) =>
    createTelemetryEmbedder({
      baseUrl: telemetry.origin,
      provider: 'openai',
      model: 'text-embedding-3-small',
      token: 'telemetry-token',
      timeoutMs: overrides.timeoutMs ?? 5_000,
      retries: overrides.retries ?? 1,
      backoffMs: () => 0,
    });

  beforeEach(async () => {
    telemetry = await startFakeTelemetry();
  });
  afterEach(async () => {
    await telemetry.close();
  });

  it('sends provider, model, purpose and inputs with the telemetry token, and returns the vectors in order', async () => {
    telemetry.enqueue(embedded(['alpha', 'beta']));
    const vectors = await embedder().embed(['alpha', 'beta'], 'document');
    expect(vectors).toEqual([offlineEmbed('alpha'), offlineEmbed('beta')]);
    expect(telemetry.requests).toHaveLength(1);
    expect(telemetry.requests[0]!.body).toEqual({
      provider: 'openai',
      model: 'text-embedding-3-small',
      purpose: 'document',
      input: ['alpha', 'beta'],
    });
    expect(telemetry.requests[0]!.headers.authorization).toBe('Bearer telemetry-token');
  });

  it('learns the model and dimensions from the answer', async () => {
    telemetry.enqueue(embedded(['dimension probe'], 'text-embedding-3-small'));
    await expect(embedder().identity()).resolves.toEqual({
      provider: 'openai',
      model: 'text-embedding-3-small',
      dims: 256,
    });
  });

  it('retries a 500 and succeeds when the service recovers', async () => {
    telemetry.enqueue({ status: 500, body: { error: 'boom' } }, embedded(['alpha']));
    await expect(embedder().embed(['alpha'], 'query')).resolves.toEqual([offlineEmbed('alpha')]);
    expect(telemetry.requests).toHaveLength(2);
  });

  it('gives up on a persistent 500 with a clear error naming the service and the status', async () => {
    telemetry.enqueue({ status: 500, body: { error: 'boom' } }, { status: 503, body: { error: 'still down' } });
    const failure = embedder().embed(['alpha'], 'query');
    await expect(failure).rejects.toBeInstanceOf(EmbedderUnavailableError);
    await expect(failure).rejects.toThrow(
      new RegExp(`telemetry embedder at ${telemetry.origin}/v1/kb/embed failed after 2 attempt\\(s\\): HTTP 503`),
    );
    expect(telemetry.requests).toHaveLength(2);
  });

  it('times out a request that gets no answer', async () => {
    telemetry.enqueue({ ...embedded(['alpha']), delayMs: 60_000 });
    await expect(embedder({ timeoutMs: 200, retries: 0 }).embed(['alpha'], 'query')).rejects.toThrow(
      /failed after 1 attempt\(s\): no answer within 200 ms/,
    );
  });

  it('does not retry a 4xx', async () => {
    telemetry.enqueue({ status: 401, body: { error: 'bad token' } });
    await expect(embedder({ retries: 3 }).embed(['alpha'], 'query')).rejects.toThrow(/HTTP 401/);
    expect(telemetry.requests).toHaveLength(1);
  });

  it('refuses an answer with the wrong number of vectors', async () => {
    telemetry.enqueue(embedded(['only one']));
    await expect(embedder().embed(['a', 'b'], 'document')).rejects.toThrow(/returned 1 vectors for 2 inputs/);
  });

  it('says the service is unreachable when nothing listens', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const down = createTelemetryEmbedder({
      baseUrl: `http://127.0.0.1:${port}`,
      provider: 'openai',
      timeoutMs: 1_000,
      retries: 0,
    });
    await expect(down.embed(['a'], 'query')).rejects.toThrow(/unreachable \(ECONNREFUSED\)/);
  });

  it('serves the hub end to end: indexing and queries ask telemetry, and a failing service is a 503', async () => {
    const kb = await createKbFixture({
      EMBEDDING_PROVIDER: 'openai',
      TELEMETRY_URL: telemetry.origin,
      KB_EMBED_RETRIES: '0',
    });
    const api = await startKbApi(kb);
    try {
      const id = khIdFor('hub:notes/tele.md');
      await kb.put('notes/tele.md', hubDoc({ id, sensitivity: 'public' }, 'Telemetry owns the provider keys.\n'));
      telemetry.enqueue(
        embedded(['dimension probe']),
        embedded(['Telemetry owns the provider keys.']),
        embedded(['provider keys']),
      );
      expect(await indexPaths(kb.hub, ['notes/tele.md'])).toEqual([
        { path: 'notes/tele.md', status: 'indexed', kh_id: id, chunks: 1, embedded: 1 },
      ]);
      const token = await api.token('admin');
      const ok = await api.call(token, 'POST', '/v1/kb/query', { query: 'provider keys' });
      expect(ok.status).toBe(200);
      expect(ok.body.results[0]!.kh_id).toBe(id);
      expect(ok.body.embedder).toEqual({ provider: 'openai', model: 'text-embedding-3-small', dims: 256 });
      expect(telemetry.requests.map((r) => (r.body as { purpose: string }).purpose)).toEqual([
        'query',
        'document',
        'query',
      ]);

      telemetry.enqueue({ status: 500, body: { error: 'down' } });
      const down = await api.call(token, 'POST', '/v1/kb/query', { query: 'provider keys' });
      expect(down.status).toBe(503);
      expect(down.body.error).toEqual({
        code: 'embedder_unavailable',
        message: expect.stringMatching(/telemetry embedder .* HTTP 500/) as string,
      });
    } finally {
      await api.close();
      await kb.close();
    }
  });
});

describe('the local embedder (OpenAI-compatible /embeddings)', () => {
  let local: Awaited<ReturnType<typeof startFakeLocalEmbeddings>>;
  beforeEach(async () => {
    local = await startFakeLocalEmbeddings();
  });
  afterEach(async () => {
    await local.close();
  });

  it('asks for float vectors of the configured model and puts them in input order', async () => {
    local.enqueue(localEmbeddings(['one', 'two', 'three'], 'nomic-embed-text'));
    const embedder = createLocalEmbedder({ baseUrl: `${local.origin}/v1`, timeoutMs: 5_000, retries: 0 });
    const vectors = await embedder.embed(['one', 'two', 'three'], 'document');
    expect(vectors).toEqual([offlineEmbed('one'), offlineEmbed('two'), offlineEmbed('three')]);
    expect(local.requests[0]!.body).toEqual({
      model: 'nomic-embed-text',
      input: ['one', 'two', 'three'],
      encoding_format: 'float',
    });
    await expect(embedder.identity()).resolves.toEqual({ provider: 'local', model: 'nomic-embed-text', dims: 256 });
  });

  it('fails clearly when the server errors', async () => {
    local.enqueue({ status: 500, body: { error: { message: 'model not loaded', type: 'server_error' } } });
    const embedder = createLocalEmbedder({ baseUrl: `${local.origin}/v1`, model: 'm', timeoutMs: 5_000, retries: 0 });
    await expect(embedder.embed(['x'], 'query')).rejects.toThrow(
      new RegExp(`local embedding server at ${local.origin}/v1 failed after 1 attempt\\(s\\): .*model not loaded`),
    );
  });
});

import crypto from 'node:crypto';
import { indexPaths } from '../../kb/indexer';
import { khIdFor } from '../../kb/kh-id';
import { createKbFixture, hubDoc, startKbApi, type KbFixture } from './kb-fixture';

type Api = Awaited<ReturnType<typeof startKbApi>>;

const PUBLIC_ID = khIdFor('hub:guides/onboarding.md');
const INTERNAL_ID = khIdFor('hub:runbooks/giraffe.md');
const SECRET_ID = khIdFor('hub:secrets/keys.md');
const NOTION_ID = khIdFor('notion:page:abc');

let kb: KbFixture;
let api: Api;
let admin: string;
let publicReader: string;
let internalReader: string;

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  kb = await createKbFixture();
  await kb.put(
    'guides/onboarding.md',
    hubDoc(
      { id: PUBLIC_ID, sensitivity: 'public', tags: ['people'] },
      '# Onboarding\n\nNew joiners get a laptop and a buddy on day one.\n\nSee the [giraffe runbook](../runbooks/giraffe.md).\n',
    ),
  );
  await kb.put(
    'runbooks/giraffe.md',
    hubDoc(
      { id: INTERNAL_ID, sensitivity: 'internal', tags: ['ops'] },
      '# Incident runbook\n\n## Escalation\n\nFollow the purple giraffe protocol when the pager fires twice.\n\n## Laptops\n\nA laptop that fails to boot goes back to IT.\n',
    ),
  );
  await kb.put(
    'secrets/keys.md',
    hubDoc(
      { id: SECRET_ID, sensitivity: 'secret', tags: ['ops'] },
      '# Keys\n\nThe purple giraffe vault opens with key 42.\n',
    ),
  );
  await kb.put(
    'sources/notion/acme/laptops.md',
    hubDoc(
      { id: NOTION_ID, sensitivity: 'partner', tags: ['people'], source_url: 'https://notion.example/abc' },
      '# Laptop policy\n\nLaptops are replaced every three years.\n',
    ),
  );
  // In org acme, the org of startKbApi's tokens, which may therefore edit them (docs/knowledge-hub.md, Tenancy).
  await indexPaths(
    kb.hub,
    ['guides/onboarding.md', 'runbooks/giraffe.md', 'secrets/keys.md', 'sources/notion/acme/laptops.md'],
    { org: 'acme' },
  );
  api = await startKbApi(kb);
  admin = await api.token('admin');
  publicReader = await api.token('public');
  internalReader = await api.token('internal');
});

afterAll(async () => {
  await api.close();
  await kb.close();
});

describe('POST /v1/kb/query', () => {
  it('ranks the document holding a unique phrase first, with its heading, snippet and score', async () => {
    const { status, body } = await api.call(internalReader, 'POST', '/v1/kb/query', {
      query: 'purple giraffe protocol',
    });
    expect(status).toBe(200);
    expect(body.results[0]).toMatchObject({
      kh_id: INTERNAL_ID,
      path: 'runbooks/giraffe.md',
      title: 'Incident runbook',
      heading: 'Incident runbook > Escalation',
      snippet: 'Follow the purple giraffe protocol when the pager fires twice.',
      sensitivity: 'internal',
      tags: ['ops'],
      source: 'hub',
    });
    expect(body.results[0]!.score).toBeGreaterThan(body.results[1]?.score ?? 0);
    expect(body.embedder).toEqual({ provider: 'offline', model: 'keel-lexical-hash-v1', dims: 256 });
  });

  it("never returns chunks above the caller's clearance, and a filter only narrows", async () => {
    const levels = async (token: string, filters?: object) => {
      const { body } = await api.call(token, 'POST', '/v1/kb/query', {
        query: 'purple giraffe laptop',
        k: 50,
        filters,
      });
      return new Set((body.results as { sensitivity: string }[]).map((r) => r.sensitivity));
    };
    expect(await levels(publicReader)).toEqual(new Set(['public']));
    expect(await levels(internalReader)).toEqual(new Set(['public', 'partner', 'internal']));
    expect(await levels(admin)).toEqual(new Set(['public', 'partner', 'internal', 'secret']));
    expect(await levels(publicReader, { sensitivity: ['secret'] })).toEqual(new Set());
    expect(await levels(admin, { sensitivity: ['partner'] })).toEqual(new Set(['partner']));
  });

  it('filters by tags and source', async () => {
    const { body } = await api.call(admin, 'POST', '/v1/kb/query', {
      query: 'laptop',
      filters: { tags: ['people'], source: ['notion'] },
    });
    expect(body.results.map((r: { kh_id: string }) => r.kh_id)).toEqual([NOTION_ID]);
  });

  it.each([
    [{}, /query/],
    [{ query: '   ' }, /query/],
    [{ query: 'x', k: 51 }, /k/],
    [{ query: 'x', filters: { sensitivity: ['top'] } }, /sensitivity/],
    [{ query: 'x', extra: 1 }, /extra|unrecognized/i],
  ])('refuses %j with 400 naming the field', async (payload, message) => {
    const { status, body } = await api.call(admin, 'POST', '/v1/kb/query', payload);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'invalid_request', message: expect.stringMatching(message) as string });
  });

  it('needs a token', async () => {
    const response = await fetch(`${api.baseUrl}/v1/kb/query`, { method: 'POST' });
    expect(response.status).toBe(401);
  });
});

describe('GET /v1/kb/doc/:kh_id and GET /v1/kb/file', () => {
  it('returns frontmatter and markdown of a readable document', async () => {
    const { status, body } = await api.call(internalReader, 'GET', `/v1/kb/doc/${INTERNAL_ID}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      kh_id: INTERNAL_ID,
      path: 'runbooks/giraffe.md',
      frontmatter: { id: INTERNAL_ID, sensitivity: 'internal', tags: ['ops'] },
      markdown: expect.stringContaining('purple giraffe protocol') as string,
      content_hash: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
    });
  });

  it('answers 404 for a document above the clearance, as for a missing one, and 400 for a malformed id', async () => {
    expect((await api.call(publicReader, 'GET', `/v1/kb/doc/${INTERNAL_ID}`)).status).toBe(404);
    expect((await api.call(admin, 'GET', `/v1/kb/doc/${khIdFor('nothing')}`)).status).toBe(404);
    expect((await api.call(admin, 'GET', '/v1/kb/doc/doc-1')).status).toBe(400);
  });

  it('reads a hub file with its hash, under the same clearance rule, and refuses paths outside the hub', async () => {
    const { status, body } = await api.call(admin, 'GET', '/v1/kb/file?path=secrets/keys.md');
    expect(status).toBe(200);
    expect(body.content_hash).toBe(sha(body.content));
    expect((await api.call(internalReader, 'GET', '/v1/kb/file?path=secrets/keys.md')).status).toBe(404);
    const escape = await api.call(admin, 'GET', '/v1/kb/file?path=../../etc/passwd.md');
    expect(escape.status).toBe(400);
  });
});

describe('POST /v1/kb/file and POST /v1/kb/edit', () => {
  it('writes a file, assigns its kh-id when the frontmatter has none, and indexes it before answering', async () => {
    const content = '---\nsensitivity: internal\ntags: [faq]\n---\n# FAQ\n\nThe wombat deploy window is Tuesday.\n';
    const { status, body } = await api.call(internalReader, 'POST', '/v1/kb/file', { path: 'faq/deploys.md', content });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      path: 'faq/deploys.md',
      kh_id: khIdFor('hub:faq/deploys.md'),
      status: 'indexed',
      chunks: 1,
    });
    const hit = await api.call(internalReader, 'POST', '/v1/kb/query', { query: 'wombat deploy window' });
    expect(hit.body.results[0]!.path).toBe('faq/deploys.md');
    const file = await api.call(internalReader, 'GET', '/v1/kb/file?path=faq/deploys.md');
    expect(file.body.content).toContain(`id: ${khIdFor('hub:faq/deploys.md')}`);
    expect(file.body.content_hash).toBe(body.content_hash);
  });

  it('refuses an invalid document with 400 and stores nothing', async () => {
    const { status, body } = await api.call(admin, 'POST', '/v1/kb/file', {
      path: 'faq/bad.md',
      content: '---\ntags: [x]\n---\nno sensitivity\n',
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_document');
    expect((await api.call(admin, 'GET', '/v1/kb/file?path=faq/bad.md')).status).toBe(404);
  });

  it('refuses writing above the clearance with 403', async () => {
    const { status, body } = await api.call(internalReader, 'POST', '/v1/kb/file', {
      path: 'faq/secret.md',
      content: '---\nsensitivity: secret\n---\nhidden\n',
    });
    expect(status).toBe(403);
    expect(body.error.code).toBe('insufficient_clearance');
  });

  it('honours base_hash on a file write: 409 when the file changed, null meaning it must not exist', async () => {
    const current = await api.call(admin, 'GET', '/v1/kb/file?path=faq/deploys.md');
    const stale = await api.call(admin, 'POST', '/v1/kb/file', {
      path: 'faq/deploys.md',
      content: current.body.content,
      base_hash: sha('something else'),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('hash_conflict');
    const exists = await api.call(admin, 'POST', '/v1/kb/file', {
      path: 'faq/deploys.md',
      content: current.body.content,
      base_hash: null,
    });
    expect(exists.status).toBe(409);
  });

  it('edits a body with optimistic concurrency: the first edit wins, a second on the old hash is 409', async () => {
    const doc = await api.call(internalReader, 'GET', `/v1/kb/doc/${INTERNAL_ID}`);
    const edit = {
      kh_id: INTERNAL_ID,
      base_hash: doc.body.content_hash,
      body: '# Incident runbook\n\n## Escalation\n\nPage the orange okapi rota instead.\n',
    };
    const first = await api.call(internalReader, 'POST', '/v1/kb/edit', edit);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ kh_id: INTERNAL_ID, status: 'indexed', chunks: 1 });
    expect(first.body.content_hash).not.toBe(doc.body.content_hash);
    const second = await api.call(internalReader, 'POST', '/v1/kb/edit', { ...edit, body: 'other' });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('hash_conflict');
    const hit = await api.call(internalReader, 'POST', '/v1/kb/query', { query: 'orange okapi rota' });
    expect(hit.body.results[0]!.kh_id).toBe(INTERNAL_ID);
    const gone = await api.call(internalReader, 'POST', '/v1/kb/query', { query: 'purple giraffe protocol pager' });
    // The old text is gone from the index: no chunk holds it any more.
    expect(gone.body.results.map((r: { snippet: string }) => r.snippet).join('\n')).not.toContain(
      'purple giraffe protocol',
    );
  });

  it('patches frontmatter: sets and removes keys, keeps the id, refuses raising it above the clearance', async () => {
    const doc = await api.call(admin, 'GET', `/v1/kb/doc/${PUBLIC_ID}`);
    const patched = await api.call(admin, 'POST', '/v1/kb/edit', {
      kh_id: PUBLIC_ID,
      base_hash: doc.body.content_hash,
      frontmatter: { tags: ['people', 'hr'], owner: 'hr-team' },
    });
    expect(patched.status).toBe(200);
    const after = await api.call(admin, 'GET', `/v1/kb/doc/${PUBLIC_ID}`);
    expect(after.body.frontmatter).toMatchObject({ id: PUBLIC_ID, tags: ['people', 'hr'], owner: 'hr-team' });
    expect(after.body.markdown).toBe(doc.body.markdown);

    const raise = await api.call(internalReader, 'POST', '/v1/kb/edit', {
      kh_id: PUBLIC_ID,
      base_hash: after.body.content_hash,
      frontmatter: { sensitivity: 'secret' },
    });
    expect(raise.status).toBe(403);
    const idChange = await api.call(admin, 'POST', '/v1/kb/edit', {
      kh_id: PUBLIC_ID,
      base_hash: after.body.content_hash,
      frontmatter: { id: khIdFor('x') },
    });
    expect(idChange.status).toBe(400);
    const empty = await api.call(admin, 'POST', '/v1/kb/edit', {
      kh_id: PUBLIC_ID,
      base_hash: after.body.content_hash,
    });
    expect(empty.status).toBe(400);
  });
});

describe('the atlas', () => {
  it('lists domains (sources and tags with counts) within the clearance', async () => {
    const { status, body } = await api.call(publicReader, 'GET', '/v1/atlas/domains');
    expect(status).toBe(200);
    expect(body).toEqual({
      sources: [{ source: 'hub', documents: 1, chunks: 1 }],
      tags: [
        { tag: 'hr', documents: 1 },
        { tag: 'people', documents: 1 },
      ],
    });
    const all = await api.call(admin, 'GET', '/v1/atlas/domains');
    expect(all.body.sources).toEqual([
      { source: 'hub', documents: 4, chunks: expect.any(Number) as number },
      { source: 'notion', documents: 1, chunks: 1 },
    ]);
  });

  it('pages through a domain with an opaque cursor', async () => {
    const first = await api.call(admin, 'GET', '/v1/atlas/scope?source=hub&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.documents.map((d: { path: string }) => d.path)).toEqual([
      'faq/deploys.md',
      'guides/onboarding.md',
    ]);
    const second = await api.call(admin, 'GET', `/v1/atlas/scope?source=hub&limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.documents.map((d: { path: string }) => d.path)).toEqual([
      'runbooks/giraffe.md',
      'secrets/keys.md',
    ]);
    const third = await api.call(admin, 'GET', `/v1/atlas/scope?source=hub&limit=2&cursor=${second.body.next_cursor}`);
    expect(third.body).toEqual({ documents: [], next_cursor: null });
    const byTag = await api.call(internalReader, 'GET', '/v1/atlas/scope?tag=ops');
    expect(byTag.body.documents.map((d: { kh_id: string }) => d.kh_id)).toEqual([INTERNAL_ID]);
    expect((await api.call(admin, 'GET', '/v1/atlas/scope')).status).toBe(400);
    expect((await api.call(admin, 'GET', '/v1/atlas/scope?source=hub&cursor=%%%')).status).toBe(400);
  });

  it('shows a node with its nearest neighbours and its links both ways', async () => {
    const { status, body } = await api.call(admin, 'GET', `/v1/atlas/node/${INTERNAL_ID}`);
    expect(status).toBe(200);
    expect(body.document).toMatchObject({ kh_id: INTERNAL_ID, path: 'runbooks/giraffe.md', chunks: 1 });
    expect(body.neighbours.length).toBeGreaterThan(0);
    expect(body.neighbours.map((n: { kh_id: string }) => n.kh_id)).not.toContain(INTERNAL_ID);
    expect(body.links.incoming).toEqual([{ kh_id: PUBLIC_ID, path: 'guides/onboarding.md', title: 'Onboarding' }]);
    const from = await api.call(admin, 'GET', `/v1/atlas/node/${PUBLIC_ID}`);
    expect(from.body.links.outgoing).toEqual([
      { href: '../runbooks/giraffe.md', kh_id: INTERNAL_ID, path: 'runbooks/giraffe.md', title: 'Incident runbook' },
    ]);
    const hidden = await api.call(publicReader, 'GET', `/v1/atlas/node/${PUBLIC_ID}`);
    expect(hidden.body.links.outgoing).toEqual([
      { href: '../runbooks/giraffe.md', kh_id: null, path: null, title: null },
    ]);
    expect(hidden.body.neighbours).toEqual([]);
  });
});

describe('an API without a hub', () => {
  it('answers 503 kb_unavailable on every KB route', async () => {
    const bare = await startKbApi(kb, { withHub: false });
    try {
      const { status, body } = await bare.call(admin, 'POST', '/v1/kb/query', { query: 'x' });
      expect(status).toBe(503);
      expect(body.error.code).toBe('kb_unavailable');
      expect((await bare.call(admin, 'GET', '/v1/atlas/domains')).status).toBe(503);
    } finally {
      await bare.close();
    }
  });
});

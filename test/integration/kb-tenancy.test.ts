// The knowledge hub's tenancy: a document belongs to an org or to the shared space; another org's token cannot
// read, search, edit or delete it (404, as if it did not exist), through the API and the MCP tools alike; an edit
// never lowers a document's sensitivity without clearance for its current level; connector output lands in the
// connector's configured space.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MockActivityEnvironment } from '@temporalio/testing';
import { knowledgeActivities } from '../../activities/knowledge';
import { runConnectorOnce } from '../../connectors/run-once';
import { connectorsConfig } from '../../connectors/settings';
import { recordSubmission } from '../../db/jobs';
import { createToken } from '../../db/tokens';
import { setClearance } from '../../kb/clearance';
import { indexPaths } from '../../kb/indexer';
import { khIdFor } from '../../kb/kh-id';
import type { Sensitivity } from '../../kb/sensitivity';
import type { FakeNotion } from '../fakes/fake-notion';
import { startFakeNotion } from '../fakes/fake-notion';
import { createKbFixture, hubDoc, startKbApi, type KbFixture } from './kb-fixture';
import { createSecretStore } from '../../secrets/store';

const ROOT = path.resolve(__dirname, '..', '..');
const RUNBOOK = 'runbooks/zebra.md';
const RUNBOOK_ID = khIdFor(`hub:${RUNBOOK}`);
const HANDBOOK = 'handbook/holidays.md';
const HANDBOOK_ID = khIdFor(`hub:${HANDBOOK}`);

let kb: KbFixture;
let api: Awaited<ReturnType<typeof startKbApi>>;
let fake: FakeNotion;
let dataDir: string;
let acme: string;
let acmePublic: string;
let globex: string;
let admin: string;

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

async function token(org: string, clearance: Sensitivity | 'admin'): Promise<string> {
  const created = await createToken(kb.db.pool, {
    userId: `${org}-${clearance}`,
    orgId: org,
    isAdmin: clearance === 'admin',
  });
  if (clearance !== 'admin') await setClearance(kb.db.pool, created.tokenId, clearance);
  return created.token;
}

async function current(khId: string) {
  const { rows } = await kb.hub.pool.query<{ sensitivity: string; body: string; org_id: string | null }>(
    'SELECT sensitivity, body, org_id FROM kb_documents WHERE kh_id = $1',
    [khId],
  );
  return rows[0];
}

beforeAll(async () => {
  kb = await createKbFixture();
  api = await startKbApi(kb);
  fake = await startFakeNotion();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-tenancy-mcp-'));
  acme = await token('acme', 'internal');
  acmePublic = await token('acme', 'public');
  globex = await token('globex', 'internal');
  admin = await token('ops', 'admin');

  // acme writes its own runbook through the API: it lands in org acme.
  const written = await api.call(acme, 'POST', '/v1/kb/file', {
    path: RUNBOOK,
    content: hubDoc(
      { sensitivity: 'internal', tags: ['ops'] },
      '# Zebra runbook\n\nRotate the striped zebra credentials every Tuesday.\n',
    ),
  });
  expect(written.status).toBe(200);
  // The operator's curated hub, indexed without naming a space: the shared space.
  await kb.put(
    HANDBOOK,
    hubDoc({ id: HANDBOOK_ID, sensitivity: 'internal' }, '# Holidays\n\nThe office closes for the winter break.\n'),
  );
  await indexPaths(kb.hub, [HANDBOOK]);
});

afterAll(async () => {
  await fake?.close();
  await api?.close();
  await kb?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

describe('org scoping of hub documents', () => {
  it("keeps a document in its writer's org, and the curated hub in the shared space", async () => {
    expect((await current(RUNBOOK_ID))!.org_id).toBe('acme');
    expect((await current(HANDBOOK_ID))!.org_id).toBeNull();
    const own = await api.call(acme, 'GET', `/v1/kb/doc/${RUNBOOK_ID}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ kh_id: RUNBOOK_ID, space: { org: 'acme' } });
    for (const reader of [acme, globex]) {
      const shared = await api.call(reader, 'GET', `/v1/kb/doc/${HANDBOOK_ID}`);
      expect(shared.status).toBe(200);
      expect(shared.body).toMatchObject({ space: 'shared' });
    }
  });

  it("answers another org's token 404 on read, file read, atlas node, edit and delete, and changes nothing", async () => {
    const before = await api.call(acme, 'GET', `/v1/kb/doc/${RUNBOOK_ID}`);
    const baseHash = before.body.content_hash;

    const reads = [
      await api.call(globex, 'GET', `/v1/kb/doc/${RUNBOOK_ID}`),
      await api.call(globex, 'GET', `/v1/kb/file?path=${encodeURIComponent(RUNBOOK)}`),
      await api.call(globex, 'GET', `/v1/atlas/node/${RUNBOOK_ID}`),
    ];
    for (const read of reads) expect(read).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });

    // The reported attack: an internal-clearance token of another org edits the document down to public.
    const edit = await api.call(globex, 'POST', '/v1/kb/edit', {
      kh_id: RUNBOOK_ID,
      base_hash: baseHash,
      frontmatter: { sensitivity: 'public' },
    });
    expect(edit).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    const deleted = await api.call(globex, 'DELETE', `/v1/kb/doc/${RUNBOOK_ID}`);
    expect(deleted).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    // Writing over its path by path is refused without showing anything of it.
    const overwrite = await api.call(globex, 'POST', '/v1/kb/file', {
      path: RUNBOOK,
      content: hubDoc({ sensitivity: 'public' }, '# Mine now\n'),
    });
    expect(overwrite).toMatchObject({ status: 409, body: { error: { code: 'path_taken' } } });
    expect(overwrite.body.error.message).not.toMatch(/striped|acme|internal/i);

    expect(await current(RUNBOOK_ID)).toMatchObject({ sensitivity: 'internal', org_id: 'acme' });
    const after = await api.call(acme, 'GET', `/v1/kb/doc/${RUNBOOK_ID}`);
    expect(after.body.content_hash).toBe(baseHash);
  });

  it("leaves another org's documents out of search and the atlas", async () => {
    const search = async (reader: string) => {
      const { status, body } = await api.call(reader, 'POST', '/v1/kb/query', { query: 'striped zebra credentials' });
      expect(status).toBe(200);
      return body.results.map((r) => r.kh_id);
    };
    expect(await search(acme)).toContain(RUNBOOK_ID);
    expect(await search(globex)).not.toContain(RUNBOOK_ID);
    expect(await search(admin)).toContain(RUNBOOK_ID);

    const scope = await api.call(globex, 'GET', '/v1/atlas/scope?source=hub');
    expect(scope.body.documents.map((d) => d.kh_id)).toEqual([HANDBOOK_ID]);
    const domains = await api.call(globex, 'GET', '/v1/atlas/domains');
    expect(domains.body.tags.map((t) => t.tag)).not.toContain('ops');
  });

  it("scopes the MCP tools by their token's org", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(__dirname, 'ts-entry.js'), path.join(ROOT, 'cli', 'keel.ts'), 'kb-mcp'],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', KEEL_API_URL: api.baseUrl, KEEL_TOKEN: globex, DATA_DIR: dataDir },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'keel-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
        (result.content as { text: string }[]).map((c) => c.text).join('');
      const doc = await client.callTool({ name: 'kb_doc', arguments: { kh_id: RUNBOOK_ID } });
      expect(doc.isError).toBe(true);
      expect(text(doc)).toMatch(/Keel answered 404 \(not_found:/);
      const query = await client.callTool({ name: 'kb_query', arguments: { query: 'striped zebra credentials' } });
      expect(query.isError).toBeFalsy();
      const { results } = JSON.parse(text(query)) as { results: { kh_id: string }[] };
      expect(results.map((r) => r.kh_id)).not.toContain(RUNBOOK_ID);
    } finally {
      await client.close();
    }
  });

  it('lets only admin tokens write the shared space', async () => {
    const read = await api.call(globex, 'GET', `/v1/kb/doc/${HANDBOOK_ID}`);
    const edit = (caller: string) =>
      api.call(caller, 'POST', '/v1/kb/edit', {
        kh_id: HANDBOOK_ID,
        base_hash: read.body.content_hash,
        body: '# Holidays\n\nThe office closes for two weeks.\n',
      });
    expect(await edit(globex)).toMatchObject({ status: 403, body: { error: { code: 'space_read_only' } } });
    const create = await api.call(acme, 'POST', '/v1/kb/file', {
      path: 'handbook/new.md',
      content: hubDoc({ sensitivity: 'public' }, '# New\n'),
      space: 'shared',
    });
    expect(create).toMatchObject({ status: 403, body: { error: { code: 'space_read_only' } } });
    // A curated file not indexed yet belongs to no org: no org's token takes it over.
    await kb.put('handbook/pending.md', hubDoc({ sensitivity: 'public' }, '# Pending\n'));
    const takeover = await api.call(acme, 'POST', '/v1/kb/file', {
      path: 'handbook/pending.md',
      content: hubDoc({ sensitivity: 'public' }, '# Ours\n'),
    });
    expect(takeover).toMatchObject({ status: 409, body: { error: { code: 'path_taken' } } });
    expect(await fs.readFile(path.join(kb.hubDir, 'handbook/pending.md'), 'utf8')).toContain('# Pending');
    expect(await edit(admin)).toMatchObject({ status: 200 });
    expect(await current(HANDBOOK_ID)).toMatchObject({
      org_id: null,
      body: expect.stringContaining('two weeks') as string,
    });
  });

  it('refuses to lower a document below its level without clearance for that level, with 403', async () => {
    const before = await current(RUNBOOK_ID);
    // acme's public-clearance token cannot see the internal runbook; writing it down to public by path is refused.
    const lowered = await api.call(acmePublic, 'POST', '/v1/kb/file', {
      path: RUNBOOK,
      content: hubDoc({ sensitivity: 'public' }, '# Zebra runbook\n\nNothing to see.\n'),
    });
    expect(lowered).toMatchObject({ status: 403, body: { error: { code: 'insufficient_clearance' } } });
    expect(lowered.body.error.message).toBe(
      `lowering ${RUNBOOK} from internal to public needs internal clearance; this token has public`,
    );
    expect(await current(RUNBOOK_ID)).toEqual(before);

    // A token cleared for the current level may lower it (docs/knowledge-hub.md, Tenancy).
    const doc = await api.call(acme, 'GET', `/v1/kb/doc/${RUNBOOK_ID}`);
    const allowed = await api.call(acme, 'POST', '/v1/kb/edit', {
      kh_id: RUNBOOK_ID,
      base_hash: doc.body.content_hash,
      frontmatter: { sensitivity: 'partner' },
    });
    expect(allowed.status).toBe(200);
    expect((await current(RUNBOOK_ID))!.sensitivity).toBe('partner');
  });

  it('lets the owning org delete its document, which is then gone for everyone', async () => {
    const file = await api.call(acme, 'GET', `/v1/kb/file?path=${encodeURIComponent(RUNBOOK)}`);
    const stale = await api.call(acme, 'DELETE', `/v1/kb/doc/${RUNBOOK_ID}?base_hash=${sha('stale')}`);
    expect(stale).toMatchObject({ status: 409, body: { error: { code: 'hash_conflict' } } });
    const deleted = await api.call(acme, 'DELETE', `/v1/kb/doc/${RUNBOOK_ID}?base_hash=${file.body.content_hash}`);
    expect(deleted).toMatchObject({ status: 200, body: { kh_id: RUNBOOK_ID, path: RUNBOOK, status: 'deleted' } });
    expect(await current(RUNBOOK_ID)).toBeUndefined();
    await expect(fs.access(path.join(kb.hubDir, RUNBOOK))).rejects.toThrow();
    expect((await api.call(admin, 'GET', `/v1/kb/doc/${RUNBOOK_ID}`)).status).toBe(404);
  });

  it("puts a connector's documents in the org its configuration names", async () => {
    fake.setPages([
      {
        id: '00000009-aaaa-bbbb-cccc-000000000009',
        title: 'Okapi pricing',
        last_edited_time: '2026-03-01T10:00:00.000Z',
        blocks: [
          {
            id: 'b1',
            type: 'paragraph',
            paragraph: { rich_text: [{ type: 'text', plain_text: 'Okapi plans cost less.' }] },
          },
        ],
      },
    ]);
    const secretsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-tenancy-secrets-'));
    await fs.writeFile(path.join(secretsDir, 'notion-token'), fake.token);
    try {
      const report = await runConnectorOnce({
        name: 'notion',
        config: connectorsConfig.parse({
          CONNECTOR_NOTION_AUTH_SECRET_ID: 'notion-token',
          CONNECTOR_NOTION_WORKSPACE_SLUG: 'acme',
          CONNECTOR_NOTION_DEFAULT_SENSITIVITY: 'internal',
          CONNECTOR_NOTION_ORG: 'acme',
          NOTION_API_URL: fake.url,
        }),
        secrets: createSecretStore({ dir: secretsDir, ttlMs: 0, fromEnv: false, env: {} }),
        pool: kb.db.pool,
        index: { pool: kb.hub.pool, embedder: kb.hub.embedder },
      });
      expect(report.written).toEqual(['sources/notion/acme/okapi-pricing.md']);
    } finally {
      await fs.rm(secretsDir, { recursive: true, force: true });
    }
    const id = khIdFor('notion:page:00000009-aaaa-bbbb-cccc-000000000009');
    expect((await current(id))!.org_id).toBe('acme');
    expect((await api.call(acme, 'GET', `/v1/kb/doc/${id}`)).status).toBe(200);
    expect((await api.call(globex, 'GET', `/v1/kb/doc/${id}`)).status).toBe(404);
    // Its file is not on the API's disk (the run's directory is gone): the index's level still guards a lowering.
    const lowered = await api.call(acmePublic, 'POST', '/v1/kb/file', {
      path: 'sources/notion/acme/okapi-pricing.md',
      content: hubDoc({ sensitivity: 'public' }, '# Okapi pricing\n\nFree for all.\n'),
    });
    expect(lowered).toMatchObject({ status: 403, body: { error: { code: 'insufficient_clearance' } } });
    expect(lowered.body.error.message).toMatch(
      /^lowering sources\/notion\/acme\/okapi-pricing\.md from internal to public/,
    );
    expect((await current(id))!.sensitivity).toBe('internal');
  });

  it("lets an agent's kb_search read its job's org and the shared space only", async () => {
    const jobOf = async (org: string) => {
      const id = `j-${org}-${crypto.randomUUID()}`;
      await recordSubmission(
        kb.db.pool,
        {
          jobId: id,
          workflowId: `w-${id}`,
          newWorkflow: true,
          promptId: `p-${id}`,
          prompt: 'price the okapi plans',
          createdBy: `${org}-user`,
          orgId: org,
          taskQueue: 'unused',
        },
        async () => undefined,
      );
      return id;
    };
    const written = await api.call(acme, 'POST', '/v1/kb/file', {
      path: 'notes/okapi.md',
      content: hubDoc({ sensitivity: 'internal' }, '# Okapi pricing\n\nOkapi plans cost less than zebra plans.\n'),
    });
    expect(written.status).toBe(200);
    const { searchKnowledgeBase } = knowledgeActivities({ kb: kb.hub, pool: kb.db.pool });
    // Inside a level of the job: the activity's workflow id is <job>/<level>/<attempt>.
    const search = (jobId: string | undefined) =>
      new MockActivityEnvironment(
        jobId ? { workflowExecution: { workflowId: `${jobId}/L2.architect/1`, runId: 'r1' } } : {},
      ).run(searchKnowledgeBase, { query: 'okapi plans cost' });

    expect(await search(await jobOf('acme'))).toMatch(/^1\. Okapi pricing \(notes\/okapi\.md/);
    expect(await search(await jobOf('globex'))).not.toContain('notes/okapi.md');
    // Outside any job: the shared space only.
    expect(await search(undefined)).not.toContain('notes/okapi.md');
  });
});

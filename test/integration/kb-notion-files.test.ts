// Notion-hosted files end to end: a connector run copies them next to the page, indexing stores them with the
// document, and the API serves them to readers of the document.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConnectorContext } from '../../connectors/contract';
import { notionConnector } from '../../connectors/notion/index';
import { loadNotionConfig } from '../../connectors/notion/config';
import { previousDocumentLookup } from '../../connectors/previous-document';
import { runConnector } from '../../connectors/run';
import { createHub } from '../../kb/hub';
import { indexPaths } from '../../kb/indexer';
import { khIdFor } from '../../kb/kh-id';
import type { FakeNotion, FakeNotionBlock } from '../fakes/fake-notion';
import { startFakeNotion } from '../fakes/fake-notion';
import { createKbFixture, startKbApi, type KbFixture } from './kb-fixture';

const PAGE_ID = '00000001-aaaa-bbbb-cccc-000000000001';
const CHART = Buffer.from('\x89PNG\r\n\x1a\n pretend chart pixels', 'binary');

let kb: KbFixture;
let api: Awaited<ReturnType<typeof startKbApi>>;
let fake: FakeNotion;

beforeAll(async () => {
  kb = await createKbFixture();
  api = await startKbApi(kb);
  fake = await startFakeNotion();
  fake.putFile('chart.png', CHART, 'image/png');
});

afterAll(async () => {
  await fake?.close();
  await api?.close();
  await kb?.close();
});

const context: () => ConnectorContext = () => ({
  secret: async () => fake.token,
  progress: () => undefined,
  signal: new AbortController().signal,
  log: () => undefined,
});

/** One connector run as run-once does it: a fresh working directory, indexed through the hub, then discarded. */
async function runNotion() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-notion-run-'));
  try {
    const hub = createHub({ pool: kb.hub.pool, hubDir: dir, embedder: kb.hub.embedder });
    const connector = notionConnector(
      loadNotionConfig({
        CONNECTOR_NOTION_WORKSPACE_SLUG: 'acme',
        CONNECTOR_NOTION_DEFAULT_SENSITIVITY: 'partner',
        NOTION_API_URL: fake.url,
        CONNECTOR_NOTION_AUTH_SECRET_ID: 'notion-token',
      }),
    );
    return await runConnector({
      connector,
      pool: kb.db.pool,
      hubDir: dir,
      previous: previousDocumentLookup(dir, kb.hub.pool),
      context: context(),
      index: async (paths) => {
        await indexPaths(hub, paths);
      },
    });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function setPage(minute: number, blocks: FakeNotionBlock[]) {
  fake.setPages([
    { id: PAGE_ID, title: 'Quarterly review', last_edited_time: `2026-03-01T10:0${minute}:00.000Z`, blocks },
  ]);
}

async function attachment(token: string, hubPath: string) {
  const response = await fetch(`${api.baseUrl}/v1/kb/attachment?path=${encodeURIComponent(hubPath)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe('Notion-hosted files in the hub', () => {
  it('serves the copy a run made, to readers of the page, after the working directory is gone', async () => {
    setPage(1, [
      {
        id: 'p1',
        type: 'paragraph',
        paragraph: { rich_text: [{ type: 'text', plain_text: 'Revenue grew.', text: { content: 'Revenue grew.' } }] },
      },
      { id: 'img', type: 'image', image: { type: 'file', file: { key: 'chart.png' }, caption: [] } },
    ]);
    const summary = await runNotion();
    expect(summary.written).toEqual(['sources/notion/acme/quarterly-review.md']);

    const reader = await api.token('partner');
    const doc = await api.call(reader, 'GET', `/v1/kb/doc/${khIdFor(`notion:page:${PAGE_ID}`)}`);
    expect(doc.status).toBe(200);
    const href = /!\[\]\((quarterly-review\.files\/[0-9a-f]{12}-chart\.png)\)/.exec(doc.body.markdown)?.[1];
    expect(href).toBeDefined();

    // A link in a document resolves against the document's directory, like any relative link.
    const hubPath = path.posix.join('sources/notion/acme', href!);
    const served = await attachment(reader, hubPath);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(served.bytes.equals(CHART)).toBe(true);

    // Below the page's sensitivity the file does not exist, like the page.
    const outsider = await api.token('public');
    expect((await attachment(outsider, hubPath)).status).toBe(404);
  });

  it('drops the stored copy when the page no longer shows the file', async () => {
    const reader = await api.token('partner');
    const before = await api.call(reader, 'GET', `/v1/kb/doc/${khIdFor(`notion:page:${PAGE_ID}`)}`);
    const href = /\((quarterly-review\.files\/[^)]+)\)/.exec(before.body.markdown)![1]!;
    setPage(2, [
      {
        id: 'p1',
        type: 'paragraph',
        paragraph: { rich_text: [{ type: 'text', plain_text: 'Chart removed.', text: { content: 'Chart removed.' } }] },
      },
    ]);
    await runNotion();
    expect((await attachment(reader, path.posix.join('sources/notion/acme', href))).status).toBe(404);
  });

  it('refuses a markdown path or one leaving the hub with 400', async () => {
    const reader = await api.token('partner');
    for (const bad of ['sources/notion/acme/quarterly-review.md', '../etc/passwd', '/etc/passwd']) {
      const response = await fetch(`${api.baseUrl}/v1/kb/attachment?path=${encodeURIComponent(bad)}`, {
        headers: { authorization: `Bearer ${reader}` },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    }
  });
});

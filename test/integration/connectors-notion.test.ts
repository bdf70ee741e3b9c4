// The Notion connector against a local server speaking the Notion API: pagination, the stop-at-cursor rule, crash-safe
// cursor order, the 3 requests/second limit and 429 retries, all with an injected clock (no waiting).
import type { ConnectorContext, ConnectorStep, SourceRecord } from '../../connectors/contract';
import type { Clock } from '../../connectors/clock';
import type { NotionCursor } from '../../connectors/notion/index';
import { createNotionConnector } from '../../connectors/notion/index';
import type { FakeNotion, FakeNotionBlock, FakeNotionPage } from '../fakes/fake-notion';
import { startFakeNotion } from '../fakes/fake-notion';

let time = 0;
const clock: Clock = {
  now: () => time,
  sleep: async (ms) => {
    time += Math.max(0, ms);
  },
};
let fake: FakeNotion;

beforeEach(async () => {
  time = 1_000_000;
  fake = await startFakeNotion({ now: () => time, pageSize: 2 });
});
afterEach(async () => {
  await fake.close();
});

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    CONNECTOR_NOTION_WORKSPACE_SLUG: 'acme',
    CONNECTOR_NOTION_DEFAULT_SENSITIVITY: 'partner',
    NOTION_API_URL: fake.url,
    CONNECTOR_NOTION_AUTH_SECRET_ID: 'notion-token',
    ...extra,
  };
}

function context(secrets: Record<string, string> = { 'notion-token': fake.token }): ConnectorContext {
  return {
    secret: async (id) => secrets[id],
    progress: () => undefined,
    signal: new AbortController().signal,
    log: () => undefined,
  };
}

async function collect(
  cursor?: NotionCursor,
  ctx = context(),
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Array<ConnectorStep<NotionCursor>>> {
  const steps: Array<ConnectorStep<NotionCursor>> = [];
  for await (const step of createNotionConnector(env(extraEnv), { clock }).read(cursor, ctx)) steps.push(step);
  return steps;
}

const span = (content: string) => ({
  type: 'text',
  text: { content, link: null },
  plain_text: content,
  href: null,
  annotations: { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' },
});
const paragraph = (id: string, content: string, children?: FakeNotionBlock[]): FakeNotionBlock => ({
  id,
  type: 'paragraph',
  paragraph: { rich_text: [span(content)], color: 'default' },
  ...(children ? { children } : {}),
});
const page = (
  n: number,
  minute: number,
  blocks: FakeNotionBlock[] = [paragraph(`p${n}-b1`, `body ${n}`)],
): FakeNotionPage => ({
  id: `0000000${n}-aaaa-bbbb-cccc-00000000000${n}`,
  title: `Page ${n}`,
  last_edited_time: `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
  blocks,
});

describe('Notion connector', () => {
  it('renders every page with paginated, recursive children and yields oldest first with the cursor advancing', async () => {
    const bullets: FakeNotionBlock[] = ['one', 'two', 'three'].map((word, i) => ({
      id: `bul-${i}`,
      type: 'bulleted_list_item',
      bulleted_list_item: { rich_text: [span(word)] },
      ...(i === 2
        ? {
            children: [
              { id: 'bul-2-1', type: 'bulleted_list_item', bulleted_list_item: { rich_text: [span('deep')] } },
            ],
          }
        : {}),
    }));
    const big = page(1, 1, [
      { id: 'h', type: 'heading_1', heading_1: { rich_text: [span('Intro')] } },
      ...bullets,
      { id: 'sub', type: 'child_page', child_page: { title: 'Nested' } },
      {
        id: 'tog',
        type: 'toggle',
        toggle: { rich_text: [span('hidden')] },
        children: [paragraph('tog-1', 'never read')],
      },
    ]);
    const untitled = { ...page(2, 2), title: '', id: '9f8e7d6c-5b4a-4321-8765-0123456789ab' };
    fake.setPages([big, untitled, page(3, 3)]);

    const steps = await collect();

    expect(steps.map((step) => step.record?.path)).toEqual([
      'sources/notion/acme/page-1.md',
      'sources/notion/acme/9f8e7d6c5b4a.md',
      'sources/notion/acme/page-3.md',
    ]);
    expect(steps.map((step) => step.cursor.last_edited_time)).toEqual([
      '2026-03-01T10:01:00.000Z',
      '2026-03-01T10:02:00.000Z',
      '2026-03-01T10:03:00.000Z',
    ]);
    const first = steps[0]!.record!;
    expect(first).toMatchObject<Partial<SourceRecord>>({
      sourceId: 'notion:page:00000001-aaaa-bbbb-cccc-000000000001',
      title: 'Page 1',
      sensitivity: 'partner',
      updatedAt: '2026-03-01T10:01:00.000Z',
    });
    expect(first.body).toBe(
      '# Page 1\n\n## Intro\n\n- one\n- two\n- three\n  - deep\n\n[child page: Nested]\n\n[unsupported block: toggle]\n',
    );
    expect(steps[1]!.record!.title).toBe('Untitled');
    // Children of unsupported blocks and child pages are never fetched.
    expect(fake.requests.some((request) => request.url.includes('/v1/blocks/tog/'))).toBe(false);
    expect(fake.requests.some((request) => request.url.includes('/v1/blocks/sub/'))).toBe(false);
    for (const request of fake.requests) expect(request.headers['notion-version']).toBe('2022-06-28');
    // The page's five top-level blocks came in three pages of two.
    expect(fake.requests.filter((request) => request.url.startsWith(`/v1/blocks/${big.id}/children`))).toHaveLength(3);
  });

  it('stops searching at the first page not newer than the cursor', async () => {
    fake.setPages([1, 2, 3, 4, 5].map((n) => page(n, n)));

    const steps = await collect({ last_edited_time: '2026-03-01T10:03:00.000Z' });

    expect(steps.map((step) => step.record?.title)).toEqual(['Page 4', 'Page 5']);
    // Newest first in pages of two: [5, 4], [3 → stop]; the third search page is never asked for.
    const searches = fake.requests.filter((request) => request.url === '/v1/search');
    expect(searches).toHaveLength(2);
    expect(searches[0]!.body).toMatchObject({
      filter: { property: 'object', value: 'page' },
      sort: { direction: 'descending', timestamp: 'last_edited_time' },
    });
  });

  it('keeps the cursor behind pages that share an edit time until the last of them is yielded', async () => {
    fake.setPages([page(1, 1), page(2, 2), page(3, 2), page(4, 4)]);

    const steps = await collect();

    expect(steps.map((step) => step.cursor.last_edited_time)).toEqual([
      '2026-03-01T10:01:00.000Z',
      '2026-03-01T10:01:00.000Z',
      '2026-03-01T10:02:00.000Z',
      '2026-03-01T10:04:00.000Z',
    ]);
  });

  it('starts at most 3 requests in any one-second window', async () => {
    fake.setPages([1, 2, 3, 4, 5, 6].map((n) => page(n, n)));

    await collect();

    const times = fake.requests.map((request) => request.at);
    expect(times.length).toBeGreaterThan(6);
    for (let i = 3; i < times.length; i += 1) expect(times[i]! - times[i - 3]!).toBeGreaterThanOrEqual(1000);
  });

  it('retries a 429 after the Retry-After it names', async () => {
    fake.setPages([page(1, 1)]);
    fake.throttleNext(2, 7);

    const steps = await collect();

    expect(steps).toHaveLength(1);
    const [first, second, third] = fake.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(7000);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(7000);
    expect(third!.url).toBe('/v1/search');
  });

  it("copies Notion-hosted files next to the page, and keeps an oversized file's signed link with its expiry", async () => {
    const chart = Buffer.from('\x89PNG\r\n\x1a\n a small chart', 'binary');
    const archive = Buffer.alloc(4096, 7);
    fake.putFile('Q3 chart.png', chart, 'image/png');
    fake.putFile('export.zip', archive, 'application/zip');
    fake.setPages([
      page(1, 1, [
        { id: 'img', type: 'image', image: { type: 'file', file: { key: 'Q3 chart.png' }, caption: [span('Q3')] } },
        { id: 'ext', type: 'image', image: { type: 'external', external: { url: 'https://img.example/x.png' } } },
        {
          id: 'zip',
          type: 'file',
          file: { type: 'file', file: { key: 'export.zip' }, caption: [], name: 'export.zip' },
        },
      ]),
    ]);

    const [step] = await collect(undefined, context(), { CONNECTOR_NOTION_MAX_FILE_BYTES: '1024' });

    const record = step!.record!;
    const copy = record.files?.[0];
    expect(record.files).toHaveLength(1);
    expect(copy!.path).toMatch(/^sources\/notion\/acme\/page-1\.files\/[0-9a-f]{12}-Q3-chart\.png$/);
    expect(Buffer.from(copy!.bytes).equals(chart)).toBe(true);
    const relative = copy!.path.slice('sources/notion/acme/'.length);
    const [, signedZip, expiry] =
      /!\[export\.zip\]\((\S+)\) _\(not copied: 4\.0 KiB is over the 1\.0 KiB copy limit; this Notion link expires (\S+)\)_/.exec(
        record.body,
      )!;
    expect(record.body).toBe(
      `# Page 1\n\n![Q3](${relative})\n\n![](https://img.example/x.png)\n\n` +
        `![export.zip](${signedZip}) _(not copied: 4.0 KiB is over the 1.0 KiB copy limit; this Notion link expires ${expiry})_\n`,
    );
    // The kept link is the signed one, and it works until the expiry shown.
    expect(new URL(signedZip!).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(expiry!)).toBe(time + 3600 * 1000);
    const response = await fetch(signedZip!);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(archive)).toBe(true);
    // The S3 side never sees the Notion token.
    expect(fake.fileRequests.length).toBeGreaterThanOrEqual(2);
    for (const request of fake.fileRequests) expect(request.headers.authorization).toBeUndefined();
  });

  it('renders an unchanged file to the same markdown on the next read, though its signed URL changed', async () => {
    fake.putFile('plan.pdf', Buffer.from('%PDF-1.7 plan'), 'application/pdf');
    fake.setPages([
      page(1, 1, [{ id: 'pdf', type: 'pdf', pdf: { type: 'file', file: { key: 'plan.pdf' }, caption: [] } }]),
    ]);
    const first = (await collect())[0]!.record!;
    time += 5 * 60 * 1000;
    const second = (await collect())[0]!.record!;
    expect(first.body).toMatch(/!\[\]\(page-1\.files\/[0-9a-f]{12}-plan\.pdf\)/);
    expect(second.body).toBe(first.body);
  });

  it('keeps the signed link when the file download is refused', async () => {
    fake.setPages([
      page(1, 1, [{ id: 'gone', type: 'image', image: { type: 'file', file: { key: 'deleted.png' }, caption: [] } }]),
    ]);
    const record = (await collect())[0]!.record!;
    expect(record.files).toBeUndefined();
    expect(record.body).toMatch(
      /!\[\]\(http:\/\/127\.0\.0\.1:\d+\/secure\.notion-static\.com\/deleted\.png\?\S+\) _\(not copied: the download answered 404; this Notion link expires /,
    );
  });

  it('fails without the token rather than reading anonymously', async () => {
    fake.setPages([page(1, 1)]);
    await expect(collect(undefined, context({}))).rejects.toThrow('secret "notion-token" is not set');
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a configuration without a sensitivity', () => {
    const { CONNECTOR_NOTION_DEFAULT_SENSITIVITY: _omitted, ...rest } = env();
    expect(() => createNotionConnector(rest)).toThrow('CONNECTOR_NOTION_DEFAULT_SENSITIVITY');
  });
});

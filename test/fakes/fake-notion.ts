import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

/** A page as the fake stores it: Notion's page JSON plus its top-level blocks. */
export interface FakeNotionPage {
  id: string;
  title: string;
  last_edited_time: string;
  blocks: FakeNotionBlock[];
}

/** A block in Notion's JSON shape, with its children nested for convenience (served through /children like Notion). */
export interface FakeNotionBlock {
  id: string;
  type: string;
  [key: string]: unknown;
  children?: FakeNotionBlock[];
}

export interface FakeNotionRequest {
  method: string;
  url: string;
  /** The injected clock's time when the request arrived. */
  at: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface FakeNotion {
  /** NOTION_API_URL for the connector. */
  url: string;
  token: string;
  readonly requests: ReadonlyArray<FakeNotionRequest>;
  setPages(pages: FakeNotionPage[]): void;
  /** The next `count` requests get 429 with `Retry-After: <seconds>`. */
  throttleNext(count: number, retryAfterSeconds: number): void;
  close(): Promise<void>;
}

function notionError(status: number, code: string, message: string) {
  return { object: 'error', status, code, message };
}

function pageJson(page: FakeNotionPage) {
  return {
    object: 'page',
    id: page.id,
    created_time: '2026-01-01T00:00:00.000Z',
    last_edited_time: page.last_edited_time,
    archived: false,
    in_trash: false,
    url: `https://www.notion.so/${page.title.replace(/\W+/g, '-')}-${page.id.replace(/-/g, '')}`,
    parent: { type: 'workspace', workspace: true },
    properties: {
      Name: {
        id: 'title',
        type: 'title',
        title: page.title
          ? [
              {
                type: 'text',
                text: { content: page.title, link: null },
                plain_text: page.title,
                href: null,
                annotations: {
                  bold: false,
                  italic: false,
                  strikethrough: false,
                  underline: false,
                  code: false,
                  color: 'default',
                },
              },
            ]
          : [],
      },
    },
  };
}

function blockJson(block: FakeNotionBlock) {
  const { children, ...rest } = block;
  return {
    object: 'block',
    created_time: '2026-01-01T00:00:00.000Z',
    last_edited_time: '2026-01-01T00:00:00.000Z',
    archived: false,
    ...rest,
    has_children: (children?.length ?? 0) > 0,
  };
}

/** Notion pages lists with opaque cursors; the fake's cursor is the next index. */
function paginate<T>(items: T[], startCursor: string | undefined, pageSize: number) {
  const start = startCursor ? Number(startCursor) : 0;
  const results = items.slice(start, start + pageSize);
  const next = start + pageSize < items.length ? String(start + pageSize) : null;
  return { object: 'list', results, next_cursor: next, has_more: next !== null, type: 'block', block: {} };
}

/**
 * A local server speaking the Notion API for what the connector calls: POST /v1/search (pages, sorted by
 * last_edited_time, paginated) and GET /v1/blocks/{id}/children (paginated). It checks the bearer token and the
 * Notion-Version header like Notion does, and records each request with the injected clock's time.
 */
export async function startFakeNotion(options: { now?: () => number; token?: string; pageSize?: number } = {}) {
  const token = options.token ?? 'secret_fake_notion';
  const now = options.now ?? (() => Date.now());
  const maxPageSize = options.pageSize ?? 100;
  const requests: FakeNotionRequest[] = [];
  let pages: FakeNotionPage[] = [];
  const blocks = new Map<string, FakeNotionBlock[]>();
  let throttle = { count: 0, seconds: 1 };

  const index = (list: FakeNotionBlock[]) => {
    for (const block of list) {
      if (block.children?.length) {
        blocks.set(block.id, block.children);
        index(block.children);
      }
    }
  };

  const app = Fastify({ logger: false, forceCloseConnections: true });
  app.addHook('onRequest', async (request, reply) => {
    requests.push({ method: request.method, url: request.url, at: now(), headers: request.headers, body: undefined });
    if (throttle.count > 0) {
      throttle.count -= 1;
      return reply
        .code(429)
        .header('retry-after', String(throttle.seconds))
        .send(notionError(429, 'rate_limited', 'You have been rate limited. Please try again in a few minutes.'));
    }
    if (request.headers.authorization !== `Bearer ${token}`) {
      return reply.code(401).send(notionError(401, 'unauthorized', 'API token is invalid.'));
    }
    if (!request.headers['notion-version']) {
      return reply.code(400).send(notionError(400, 'missing_version', 'Notion-Version header failed validation.'));
    }
  });
  app.addHook('preHandler', async (request) => {
    requests[requests.length - 1]!.body = request.body;
  });

  app.post<{
    Body: { filter?: { value?: string }; sort?: { direction?: string }; page_size?: number; start_cursor?: string };
  }>('/v1/search', async (request) => {
    const body = request.body ?? {};
    const sorted = [...pages].sort((a, b) => Date.parse(a.last_edited_time) - Date.parse(b.last_edited_time));
    if (body.sort?.direction !== 'ascending') sorted.reverse();
    const list = paginate(sorted.map(pageJson), body.start_cursor, Math.min(body.page_size ?? 100, maxPageSize));
    return { ...list, type: 'page_or_database', page_or_database: {} };
  });

  app.get<{ Params: { id: string }; Querystring: { page_size?: string; start_cursor?: string } }>(
    '/v1/blocks/:id/children',
    async (request, reply) => {
      const list = blocks.get(request.params.id);
      if (!list) {
        return reply
          .code(404)
          .send(notionError(404, 'object_not_found', `Could not find block with ID: ${request.params.id}.`));
      }
      const size = Math.min(Number(request.query.page_size ?? 100), maxPageSize);
      return paginate(list.map(blockJson), request.query.start_cursor, size);
    },
  );

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const fake: FakeNotion = {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    setPages(next) {
      pages = next;
      blocks.clear();
      for (const page of next) {
        blocks.set(page.id, page.blocks);
        index(page.blocks);
      }
    },
    throttleNext(count, seconds) {
      throttle = { count, seconds };
    },
    close: () => app.close(),
  };
  return fake;
}

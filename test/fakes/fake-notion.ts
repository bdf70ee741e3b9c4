import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

/** A page as the fake stores it: Notion's page JSON plus its top-level blocks. */
export interface FakeNotionPage {
  id: string;
  title: string;
  last_edited_time: string;
  blocks: FakeNotionBlock[];
}

/**
 * A block in Notion's JSON shape, with its children nested for convenience (served through /children like Notion).
 * A file block hosted by Notion names its file by key (`image: { type: 'file', file: { key: 'chart.png' } }`): the
 * fake serves it, like Notion, as a freshly signed S3-style URL with its `expiry_time` on every read.
 */
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
  /** Stores a Notion-hosted file, served at the signed URLs file blocks carry. */
  putFile(key: string, bytes: Buffer, contentType: string): void;
  /** Requests for file bytes (the S3 side), apart from the API requests above. */
  readonly fileRequests: ReadonlyArray<FakeNotionRequest>;
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

/** How long a signed file URL works; Notion's are about an hour. */
const SIGNED_URL_SECONDS = 3600;

function blockJson(block: FakeNotionBlock, signFile: (key: string) => { url: string; expiry_time: string }) {
  const { children, ...rest } = block;
  const payload = rest[block.type] as { type?: string; file?: { key?: string } } | undefined;
  if (payload?.type === 'file' && typeof payload.file?.key === 'string') {
    rest[block.type] = { ...payload, file: signFile(payload.file.key) };
  }
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
  const files = new Map<string, { bytes: Buffer; contentType: string }>();
  const fileRequests: FakeNotionRequest[] = [];
  const signingKey = crypto.randomBytes(16);
  let baseUrl = '';
  const signature = (key: string, date: string, expires: string) =>
    crypto.createHmac('sha256', signingKey).update(`${key}\n${date}\n${expires}`).digest('hex');
  /** An S3-style presigned URL (the query parameters S3's SigV4 presigning uses) and Notion's expiry_time. */
  const signFile = (key: string) => {
    const date = new Date(now())
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const expires = String(SIGNED_URL_SECONDS);
    const query = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'ASIAFAKE/20260101/us-west-2/s3/aws4_request',
      'X-Amz-Date': date,
      'X-Amz-Expires': expires,
      'X-Amz-Signature': signature(key, date, expires),
      'X-Amz-SignedHeaders': 'host',
    });
    return {
      url: `${baseUrl}/secure.notion-static.com/${encodeURIComponent(key)}?${query.toString()}`,
      expiry_time: new Date(now() + SIGNED_URL_SECONDS * 1000).toISOString(),
    };
  };
  const s3Error = (code: string, message: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

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
    if (request.url.startsWith('/secure.notion-static.com/')) {
      fileRequests.push({
        method: request.method,
        url: request.url,
        at: now(),
        headers: request.headers,
        body: undefined,
      });
      return;
    }
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
      return paginate(
        list.map((block) => blockJson(block, signFile)),
        request.query.start_cursor,
        size,
      );
    },
  );

  // The S3 side: a presigned GET is authorised by its signature alone, until it expires; a request carrying an
  // Authorization header too is refused, as S3 does.
  app.get<{ Params: { key: string }; Querystring: Record<string, string | undefined> }>(
    '/secure.notion-static.com/:key',
    async (request, reply) => {
      const xml = (status: number, code: string, message: string) =>
        reply.code(status).type('application/xml').send(s3Error(code, message));
      if (request.headers.authorization) {
        return xml(
          400,
          'InvalidArgument',
          'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter should be specified',
        );
      }
      const { 'X-Amz-Date': date, 'X-Amz-Expires': expires, 'X-Amz-Signature': given } = request.query;
      const key = request.params.key;
      if (!date || !expires || given !== signature(key, date, expires)) {
        return xml(
          403,
          'SignatureDoesNotMatch',
          'The request signature we calculated does not match the signature you provided.',
        );
      }
      const signedAt = Date.parse(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
      if (now() > signedAt + Number(expires) * 1000) return xml(403, 'AccessDenied', 'Request has expired');
      const file = files.get(key);
      if (!file) return xml(404, 'NoSuchKey', 'The specified key does not exist.');
      return reply.type(file.contentType).header('content-length', file.bytes.length).send(file.bytes);
    },
  );

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  const fake: FakeNotion = {
    url: baseUrl,
    token,
    requests,
    fileRequests,
    putFile(key, bytes, contentType) {
      files.set(key, { bytes, contentType });
    },
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

import type { z } from 'zod';
import type { BlockNode, Page } from './api-schemas';
import { BlockSchema, listSchema, PageSchema, SearchResultSchema } from './api-schemas';
import type { Clock } from '../clock';
import { fetchRetrying, UpstreamError } from '../http';
import { SlidingWindowLimiter } from './rate-limit';
import { TYPES_WITH_RENDERED_CHILDREN, withParsedPayload } from './render-blocks';

/** The API version whose JSON the schemas describe. */
export const NOTION_VERSION = '2022-06-28';
/** The spec's upstream limit (Notion's documented average). */
const REQUESTS_PER_SECOND = 3;
const PAGE_SIZE = 100;

const SearchPageSchema = listSchema(SearchResultSchema);
const ChildrenPageSchema = listSchema(BlockSchema);

export interface NotionClientOptions {
  baseUrl: string;
  token: string;
  clock: Clock;
  signal?: AbortSignal;
}

export class NotionClient {
  private readonly limiter: SlidingWindowLimiter;

  constructor(private readonly options: NotionClientOptions) {
    this.limiter = new SlidingWindowLimiter(REQUESTS_PER_SECOND, 1000, options.clock);
  }

  private async call<S extends z.ZodType>(method: 'GET' | 'POST', path: string, schema: S, body?: unknown) {
    const url = new URL(path, this.options.baseUrl).toString();
    const response = await fetchRetrying(
      url,
      {
        method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          'notion-version': NOTION_VERSION,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      {
        clock: this.options.clock,
        signal: this.options.signal,
        beforeAttempt: () => this.limiter.acquire(this.options.signal),
      },
    );
    const text = await response.text();
    if (!response.ok) {
      // Notion's error body is { object: 'error', status, code, message }; the code says what to fix.
      throw new UpstreamError(
        `Notion ${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`,
        response.status,
      );
    }
    const parsed = schema.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new UpstreamError(`Notion ${method} ${path}: unexpected JSON: ${parsed.error.message}`, 502);
    return parsed.data;
  }

  /**
   * Pages newest-edited first, stopping at (and excluding) the first page whose `last_edited_time` is not newer than
   * `since`, so a run reads only what changed.
   */
  async *pagesEditedAfter(since: string | undefined): AsyncGenerator<Page> {
    const sinceMs = since === undefined ? -Infinity : Date.parse(since);
    let startCursor: string | undefined;
    for (;;) {
      const list = await this.call('POST', '/v1/search', SearchPageSchema, {
        filter: { property: 'object', value: 'page' },
        sort: { direction: 'descending', timestamp: 'last_edited_time' },
        page_size: PAGE_SIZE,
        ...(startCursor ? { start_cursor: startCursor } : {}),
      });
      for (const result of list.results) {
        if (result.object !== 'page') continue;
        const page = PageSchema.parse(result);
        if (Date.parse(page.last_edited_time) <= sinceMs) return;
        yield page;
      }
      if (!list.has_more || !list.next_cursor) return;
      startCursor = list.next_cursor;
    }
  }

  /** The block tree under `blockId`, every children page followed; children are fetched only where rendered. */
  async blockTree(blockId: string): Promise<BlockNode[]> {
    const nodes: BlockNode[] = [];
    let startCursor: string | undefined;
    do {
      const query = new URLSearchParams({ page_size: String(PAGE_SIZE) });
      if (startCursor) query.set('start_cursor', startCursor);
      const list = await this.call(
        'GET',
        `/v1/blocks/${encodeURIComponent(blockId)}/children?${query.toString()}`,
        ChildrenPageSchema,
      );
      for (const block of list.results) {
        const children =
          block.has_children && TYPES_WITH_RENDERED_CHILDREN.has(block.type) ? await this.blockTree(block.id) : [];
        nodes.push({ block: withParsedPayload(block), children });
      }
      startCursor = list.has_more && list.next_cursor ? list.next_cursor : undefined;
    } while (startCursor);
    return nodes;
  }
}

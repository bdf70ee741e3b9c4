import { z } from 'zod';
import type { Connector, ConnectorContext, ConnectorStep, SourceRecord } from '../contract';
import type { Page } from './api-schemas';
import { NotionClient } from './client';
import type { Clock } from '../clock';
import { systemClock } from '../clock';
import type { NotionConfig } from './config';
import { loadNotionConfig } from './config';
import { copyHostedFiles } from './files';
import { pagePath, pageSourceId, pageTitle, renderPage } from './page';
import { hostedFilesIn } from './render-blocks';

export const NotionCursorSchema = z.object({ last_edited_time: z.iso.datetime({ offset: true }) });
export type NotionCursor = z.infer<typeof NotionCursorSchema>;

export interface NotionConnectorOptions {
  /** Injected by tests to count requests per window without waiting. */
  clock?: Clock;
}

function toRecord(config: NotionConfig, page: Page, body: string, files: SourceRecord['files']): SourceRecord {
  return {
    path: pagePath(config.CONNECTOR_NOTION_WORKSPACE_SLUG, page),
    sourceId: pageSourceId(page),
    title: pageTitle(page) || 'Untitled',
    sensitivity: config.CONNECTOR_NOTION_DEFAULT_SENSITIVITY,
    tags: ['notion'],
    sourceUrl: page.url,
    updatedAt: new Date(page.last_edited_time).toISOString(),
    extra: { workspace: config.CONNECTOR_NOTION_WORKSPACE_SLUG },
    body,
    ...(files && files.length > 0 ? { files } : {}),
  };
}

async function* readPages(
  config: NotionConfig,
  clock: Clock,
  cursor: NotionCursor | undefined,
  context: ConnectorContext,
): AsyncGenerator<ConnectorStep<NotionCursor>> {
  const token = await context.secret(config.CONNECTOR_NOTION_AUTH_SECRET_ID);
  if (!token) throw new Error(`notion connector: secret "${config.CONNECTOR_NOTION_AUTH_SECRET_ID}" is not set`);
  const client = new NotionClient({ baseUrl: config.NOTION_API_URL, token, clock, signal: context.signal });

  // Search answers newest first, but the run persists each yielded cursor: yielding newest first would let a crash
  // skip the older pages still unread. The changed pages' metadata is small, so collect it and write oldest first.
  const pages: Page[] = [];
  for await (const page of client.pagesEditedAfter(cursor?.last_edited_time)) pages.push(page);
  pages.reverse();
  context.log(`notion: ${pages.length} page(s) edited since ${cursor?.last_edited_time ?? 'the beginning'}`);

  let current = cursor;
  for (const [i, page] of pages.entries()) {
    const tree = await client.blockTree(page.id);
    const copied = await copyHostedFiles(hostedFilesIn(tree), {
      pagePath: pagePath(config.CONNECTOR_NOTION_WORKSPACE_SLUG, page),
      maxBytes: config.CONNECTOR_NOTION_MAX_FILE_BYTES,
      signal: context.signal,
      log: (line) => context.log(line),
    });
    const body = renderPage(page, tree, copied.links);
    // Notion's times are minute-precise, so pages often share one. The cursor moves past a time only once every page
    // with that time is written; otherwise a resume would stop at the shared time and skip the rest.
    const next = pages[i + 1];
    if (next === undefined || Date.parse(next.last_edited_time) !== Date.parse(page.last_edited_time)) {
      current = { last_edited_time: page.last_edited_time };
    }
    context.progress({ records: i + 1, bytes: Buffer.byteLength(body) });
    yield {
      record: toRecord(config, page, body, copied.files),
      cursor: current ?? { last_edited_time: new Date(0).toISOString() },
    };
  }
}

/** The Notion connector (spec: document workspace) from an environment of its variables. */
export function createNotionConnector(
  env: NodeJS.ProcessEnv,
  options: NotionConnectorOptions = {},
): Connector<NotionCursor> {
  return notionConnector(loadNotionConfig(env), options);
}

/** The Notion connector over settings parsed at start. */
export function notionConnector(config: NotionConfig, options: NotionConnectorOptions = {}): Connector<NotionCursor> {
  const clock = options.clock ?? systemClock;
  return {
    name: 'notion',
    cursorSchema: NotionCursorSchema,
    read: (cursor, context) => readPages(config, clock, cursor, context),
  };
}

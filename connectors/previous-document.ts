import type { Pool } from 'pg';
import { previousFromFile, type PreviousDocument, type PreviousDocumentLookup } from './hub-writer';

/**
 * Where a connector record's previous version lives. The run never pushes its working directory back to the hub
 * repository (durable state is only the cursor table and the index: connectors spec), so a fresh clone usually lacks
 * connector output; the index keeps every document's frontmatter and body, which is what idempotent writes and the
 * preserved `id`/`created_at` need. A file in the clone (a hub that does carry `sources/`) wins over the index.
 */
export function previousDocumentLookup(hubDir: string, indexPool: Pool): PreviousDocumentLookup {
  return async (hubPath) => {
    const fromFile = await previousFromFile(hubDir, hubPath);
    if (fromFile) return fromFile;
    const { rows } = await indexPool.query<{ frontmatter: Record<string, unknown>; body: string }>(
      'SELECT frontmatter, body FROM kb_documents WHERE path = $1',
      [hubPath],
    );
    const row = rows[0];
    return row ? ({ frontmatter: row.frontmatter, body: row.body } satisfies PreviousDocument) : undefined;
  };
}

import path from 'node:path';
import type { Pool } from 'pg';
import { hubDirOf, type KbEnv } from './config';
import { openKnowledgeHub, type KnowledgeHub } from './hub';

/**
 * The hub of an entry point (API, worker, `npm start`, `keel kb …`) from its parsed config, opened over the process's
 * pool. Problems that leave the rest of Keel usable (no pgvector, an embedder switch awaiting re-embed, an embedder
 * that is down) are returned as a warning to print, not thrown.
 */
export async function openHub(input: {
  config: KbEnv;
  pool: Pool;
  schema: string;
  dataDir: string;
  postgresSsl?: boolean;
}): Promise<{ hub: KnowledgeHub; warning: string | undefined }> {
  const hub = await openKnowledgeHub({
    pool: input.pool,
    schema: input.schema,
    hubDir: hubDirOf(input.config, path.resolve(input.dataDir)),
    env: input.config,
    postgresSsl: input.postgresSsl,
  });
  if (hub.unavailable) return { hub, warning: `knowledge hub disabled: ${hub.unavailable}` };
  try {
    await hub.ready();
    return { hub, warning: undefined };
  } catch (err) {
    return { hub, warning: `knowledge hub: ${(err as Error).message}` };
  }
}

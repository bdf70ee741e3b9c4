import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { IdAllocator } from '../db/ids';
import type { QueueStore } from '../queue/queue-store';
import type { ModelListing } from '../routing/gateway';
import type { RateLimits } from './plugins/principal';

/** Everything the ingest API needs, built by the entry point (or a test) and handed to buildApp. */
export interface ApiDeps {
  pool: Pool;
  queue: QueueStore;
  temporal: Client;
  ids: IdAllocator;
  /** The Temporal task queue that carries jobs. */
  taskQueue: string;
  /** What GET /v1/models lists. */
  models: { list(): ModelListing[] };
  rateLimits: RateLimits;
  /** Where workers write job files (shared storage when API and workers run apart). */
  workspaceRoot: string;
  /** SSE heartbeat comment interval. */
  heartbeatMs: number;
  /** How often a stream re-reads the database in case a live message was lost. */
  streamPollMs: number;
}

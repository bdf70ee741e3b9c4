import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { IdAllocator } from '../db/ids';
import type { QueueStore } from '../queue/queue-store';
import type { AdmissionDeps } from './admit';
import type { SchedulingSettings } from './scheduling';

/**
 * What the use cases every front door shares (submit, append a prompt, decide, cancel, resume) need: the
 * database, the queue store, the one Temporal client of the process and the id allocator. The ingest API, team
 * chat and the console's backend all hand these in; none of them is imported here.
 */
export interface JobsDeps extends AdmissionDeps {
  pool: Pool;
  queue: QueueStore;
  temporal: Client;
  ids: IdAllocator;
  /** The Temporal task queue that carries jobs. */
  taskQueue: string;
  /** Per-job cost ceiling in USD given to every job started here that names none. */
  jobBudgetUsd?: number;
  /** The highest ceiling a submission may name (`budget_usd`); none when absent. */
  jobBudgetMaxUsd?: number;
  /** How soon a request has its 503 while Temporal is unreachable (TEMPORAL_DOWN_ANSWER_MS; default 2 s). */
  temporalAnswerMs?: number;
  /** `heartbeat` event interval during long model calls, given to every job (ms). */
  levelHeartbeatMs?: number;
  /** Fair scheduling (JOB_SCHEDULING, docs/scheduling.md); absent: off, jobs claim no slot. */
  scheduling?: SchedulingSettings;
}

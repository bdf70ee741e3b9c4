import type { Pool } from 'pg';
import type { QueueStore } from '../queue/queue-store';
import { withTransaction } from './transaction';

/** Allocates the human-readable ids `wf-<n>` and `pt-<n>`. */
export interface IdAllocator {
  nextWorkflowId(): Promise<string>;
  nextPromptId(): Promise<string>;
}

/** Raised when a configured database cannot allocate; callers must not fall back to another counter. */
export class IdAllocationError extends Error {
  override name = 'IdAllocationError';
}

interface SequenceSpec {
  sequence: string;
  prefix: string;
  /** Every (table, column) where an id of this kind has been issued. */
  issuedIn: Array<[table: string, column: string]>;
}

const WORKFLOW_IDS: SequenceSpec = {
  sequence: 'workflow_id_seq',
  prefix: 'wf-',
  issuedIn: [
    ['workflows', 'workflow_id'],
    ['prompt_threads', 'workflow_id'],
    ['job_runs', 'workflow_id'],
  ],
};
const PROMPT_IDS: SequenceSpec = {
  sequence: 'prompt_id_seq',
  prefix: 'pt-',
  issuedIn: [
    ['prompt_threads', 'prompt_id'],
    ['job_runs', 'prompt_id'],
  ],
};

function highestIssuedSql(spec: SequenceSpec): string {
  const pattern = `^${spec.prefix}[0-9]+$`;
  const parts = spec.issuedIn.map(
    ([table, column]) =>
      `COALESCE((SELECT max(substring(${column} FROM ${spec.prefix.length + 1})::bigint) FROM ${table} WHERE ${column} ~ '${pattern}'), 0)`,
  );
  return `SELECT GREATEST(${parts.join(', ')}) AS highest`;
}

/**
 * Moves the sequence past the highest id already issued, never backwards: rows restored from a
 * backup or written by an older release must not collide with new ids. Serialized by an advisory
 * lock so two processes starting together align once.
 */
async function alignSequence(pool: Pool, spec: SequenceSpec): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`keel-ids:${spec.sequence}`]);
    const { rows } = await client.query<{ highest: string }>(highestIssuedSql(spec));
    const highest = Number(rows[0]?.highest ?? 0);
    await client.query(
      `SELECT setval('${spec.sequence}', $1::bigint)
         FROM ${spec.sequence}
        WHERE $1::bigint > CASE WHEN is_called THEN last_value ELSE last_value - 1 END`,
      [highest],
    );
  });
}

/**
 * Allocates from the two database sequences. The first allocation of each kind in this process
 * aligns its sequence first. Any database failure is an IdAllocationError: there is no fallback.
 */
export function createSequenceAllocator(pool: Pool): IdAllocator {
  const aligned = new Map<string, Promise<void>>();
  async function next(spec: SequenceSpec): Promise<string> {
    try {
      let alignment = aligned.get(spec.sequence);
      if (!alignment) {
        alignment = alignSequence(pool, spec);
        aligned.set(spec.sequence, alignment);
        // A failed alignment is retried by the next allocation instead of being cached.
        alignment.catch(() => aligned.delete(spec.sequence));
      }
      await alignment;
      const { rows } = await pool.query<{ n: string }>(`SELECT nextval('${spec.sequence}') AS n`);
      return `${spec.prefix}${rows[0]!.n}`;
    } catch (err) {
      throw new IdAllocationError(`could not allocate a ${spec.prefix}<n> id: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
  return { nextWorkflowId: () => next(WORKFLOW_IDS), nextPromptId: () => next(PROMPT_IDS) };
}

/** The cache counter: the allocator only when no database DSN is configured. */
export function createCacheCounterAllocator(queue: QueueStore): IdAllocator {
  return {
    nextWorkflowId: async () => `wf-${await queue.incrementCounter('ids:workflow')}`,
    nextPromptId: async () => `pt-${await queue.incrementCounter('ids:prompt')}`,
  };
}

/** Picks the allocator by the spec's rule: sequences whenever a database is configured. */
export function createIdAllocator(deps: { pool?: Pool; queue: QueueStore }): IdAllocator {
  return deps.pool ? createSequenceAllocator(deps.pool) : createCacheCounterAllocator(deps.queue);
}

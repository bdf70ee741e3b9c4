import type { Pool } from 'pg';
import type { QueueStore } from '../queue/queue-store';
import { withTransaction } from './transaction';

/** Allocates the human-readable ids `wf-<n>` and `pt-<n>`. */
export interface IdAllocator {
  nextWorkflowId(): Promise<string>;
  nextPromptId(): Promise<string>;
  /** A new workflow's id and its first prompt's id together (one round trip where the store allows). */
  nextWorkflowAndPromptIds(): Promise<[workflowId: string, promptId: string]>;
  /**
   * The same two ids as a constant SELECT the caller sends in a round trip it makes anyway (a submission's BEGIN,
   * db/jobs.ts), saving the allocation's own; undefined where the ids do not come from the database. Aligns the
   * sequences first (once per process); a failure then, or of the SELECT, is the caller's to raise as an
   * IdAllocationError.
   */
  workflowAndPromptIdsSelect?(): Promise<IdsSelect>;
}

/** A constant SELECT that takes ids, and how to read them from its one row. */
export interface IdsSelect {
  sql: string;
  read(row: object): [workflowId: string, promptId: string];
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

/** `SELECT nextval(…) AS n0, …`: one id of each kind, constant SQL (no parameters). */
function nextvalSelect(specs: SequenceSpec[]): string {
  return `SELECT ${specs.map((spec, i) => `nextval('${spec.sequence}') AS n${i}`).join(', ')}`;
}

/** The error an allocation of `specs` raises, naming the kinds asked for. */
export function idAllocationError(specs: Array<{ prefix: string }>, err: unknown): IdAllocationError {
  const kinds = specs.map((spec) => `${spec.prefix}<n>`).join(' and ');
  return new IdAllocationError(`could not allocate a ${kinds} id: ${(err as Error).message}`, { cause: err });
}

/**
 * Allocates from the two database sequences. The first allocation of each kind in this process
 * aligns its sequence first. Any database failure is an IdAllocationError: there is no fallback.
 */
export function createSequenceAllocator(pool: Pool): IdAllocator {
  const aligned = new Map<string, Promise<void>>();
  function alignment(spec: SequenceSpec): Promise<void> {
    let aligning = aligned.get(spec.sequence);
    if (!aligning) {
      aligning = alignSequence(pool, spec);
      aligned.set(spec.sequence, aligning);
      // A failed alignment is retried by the next allocation instead of being cached.
      aligning.catch(() => aligned.delete(spec.sequence));
    }
    return aligning;
  }
  /** One nextval per spec, in one query; any failure is an IdAllocationError naming the kinds asked for. */
  async function next(...specs: SequenceSpec[]): Promise<string[]> {
    try {
      await Promise.all(specs.map(alignment));
      const { rows } = await pool.query<Record<string, string>>(nextvalSelect(specs));
      return specs.map((spec, i) => `${spec.prefix}${rows[0]![`n${i}`]}`);
    } catch (err) {
      throw idAllocationError(specs, err);
    }
  }
  return {
    workflowAndPromptIdsSelect: async () => {
      try {
        await Promise.all([alignment(WORKFLOW_IDS), alignment(PROMPT_IDS)]);
      } catch (err) {
        throw idAllocationError([WORKFLOW_IDS, PROMPT_IDS], err);
      }
      return {
        sql: nextvalSelect([WORKFLOW_IDS, PROMPT_IDS]),
        read: (row) => {
          const { n0, n1 } = row as { n0: string; n1: string };
          return [`${WORKFLOW_IDS.prefix}${n0}`, `${PROMPT_IDS.prefix}${n1}`];
        },
      };
    },
    nextWorkflowId: async () => (await next(WORKFLOW_IDS))[0]!,
    nextPromptId: async () => (await next(PROMPT_IDS))[0]!,
    nextWorkflowAndPromptIds: async () => {
      const [workflowId, promptId] = await next(WORKFLOW_IDS, PROMPT_IDS);
      return [workflowId!, promptId!];
    },
  };
}

/** The cache counter: the allocator only when no database DSN is configured. */
export function createCacheCounterAllocator(queue: QueueStore): IdAllocator {
  return {
    nextWorkflowId: async () => `wf-${await queue.incrementCounter('ids:workflow')}`,
    nextPromptId: async () => `pt-${await queue.incrementCounter('ids:prompt')}`,
    nextWorkflowAndPromptIds: () =>
      Promise.all([
        queue.incrementCounter('ids:workflow').then((n) => `wf-${n}`),
        queue.incrementCounter('ids:prompt').then((n) => `pt-${n}`),
      ]),
  };
}

/** Picks the allocator by the spec's rule: sequences whenever a database is configured. */
export function createIdAllocator(deps: { pool?: Pool; queue: QueueStore }): IdAllocator {
  return deps.pool ? createSequenceAllocator(deps.pool) : createCacheCounterAllocator(deps.queue);
}

import type { Pool } from 'pg';
import { createIdAllocator, createSequenceAllocator, IdAllocationError } from '../../db/ids';
import type { QueueStore } from '../../queue/queue-store';
import { createTestPool } from './env';
import { createTestDatabase, createTestQueue, type TestDatabase } from './harness';

/**
 * The spec's identifier rules, one test per rule. Sequences live in a schema, so every test gets a migrated schema
 * of its own (fresh sequences, empty tables) and drops it afterwards.
 */

let db: TestDatabase;
const extraPools: Pool[] = [];
const queues: QueueStore[] = [];

beforeEach(async () => {
  db = await createTestDatabase();
});

afterEach(async () => {
  await Promise.allSettled(extraPools.splice(0).map((pool) => pool.end()));
  await Promise.allSettled(queues.splice(0).map((queue) => queue.close()));
  await db?.drop();
});

/** A queue store (Redis, under a key prefix of its own) closed after the test. */
async function openQueue(): Promise<QueueStore> {
  const queue = await createTestQueue();
  queues.push(queue);
  return queue;
}

/** Another pool over `schema`, as a second process would open it; ended after the test. */
function openPool(schema: string): Pool {
  const pool = createTestPool(schema);
  extraPools.push(pool);
  return pool;
}

/** Where the sequence stands: the value the next `nextval` builds on. */
async function sequenceValue(pool: Pool, sequence: 'workflow_id_seq' | 'prompt_id_seq'): Promise<number> {
  const { rows } = await pool.query<{ current: string }>(
    `SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END AS current FROM ${sequence}`,
  );
  return Number(rows[0]!.current);
}

/** A complete, consistent submission as an earlier release (or a restored backup) would have stored it. */
async function insertIssued(pool: Pool, ids: { workflowId: string; promptId: string; jobId: string }): Promise<void> {
  await pool.query('INSERT INTO workflows (workflow_id, project_slug, created_by) VALUES ($1, NULL, $2)', [
    ids.workflowId,
    'restored',
  ]);
  await pool.query('INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, $3, $4)', [
    ids.promptId,
    ids.workflowId,
    'restored prompt',
    'restored',
  ]);
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, task_queue)
     VALUES ($1, $2, $3, 'completed', 'restored', 'keel-restored')`,
    [ids.jobId, ids.workflowId, ids.promptId],
  );
}

/**
 * Runs `sql` with foreign keys not enforced, as pg_restore --disable-triggers does: a partial restore can leave an
 * id in a referencing table only, and that id was still issued.
 */
async function insertWithoutForeignKeys(pool: Pool, sql: string, params: unknown[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(sql, params);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

test('workflow and prompt ids come from two independent database sequences (wf-<n>, pt-<n>)', async () => {
  const ids = createSequenceAllocator(db.pool);

  expect(await ids.nextWorkflowId()).toBe('wf-1');
  expect(await ids.nextWorkflowId()).toBe('wf-2');
  expect(await ids.nextWorkflowId()).toBe('wf-3');
  expect(await ids.nextPromptId()).toBe('pt-1');
  expect(await ids.nextWorkflowId()).toBe('wf-4');
  expect(await ids.nextPromptId()).toBe('pt-2');

  expect(await sequenceValue(db.pool, 'workflow_id_seq')).toBe(4);
  expect(await sequenceValue(db.pool, 'prompt_id_seq')).toBe(2);
});

describe('the first allocation in a process aligns each sequence past the highest id already issued', () => {
  test('ids stored in workflows, prompt_threads and job_runs are skipped', async () => {
    await insertIssued(db.pool, { workflowId: 'wf-41', promptId: 'pt-77', jobId: 'job-restored-1' });
    await insertIssued(db.pool, { workflowId: 'wf-7', promptId: 'pt-3', jobId: 'job-restored-2' });

    const ids = createSequenceAllocator(db.pool);

    expect(await ids.nextWorkflowId()).toBe('wf-42');
    expect(await ids.nextPromptId()).toBe('pt-78');
    expect(await ids.nextWorkflowId()).toBe('wf-43');
    expect(await ids.nextPromptId()).toBe('pt-79');
  });

  test('an id present only in job_runs counts', async () => {
    await insertIssued(db.pool, { workflowId: 'wf-5', promptId: 'pt-5', jobId: 'job-restored-1' });
    await insertWithoutForeignKeys(
      db.pool,
      `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, task_queue)
       VALUES ('job-orphan', 'wf-90', 'pt-95', 'failed', 'restored', 'keel-restored')`,
      [],
    );

    const ids = createSequenceAllocator(db.pool);

    expect(await ids.nextWorkflowId()).toBe('wf-91');
    expect(await ids.nextPromptId()).toBe('pt-96');
  });

  test('a workflow id present only in prompt_threads.workflow_id counts', async () => {
    await insertIssued(db.pool, { workflowId: 'wf-5', promptId: 'pt-5', jobId: 'job-restored-1' });
    await insertWithoutForeignKeys(
      db.pool,
      `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by)
       VALUES ('pt-6', 'wf-60', 'orphan thread', 'restored')`,
      [],
    );

    const ids = createSequenceAllocator(db.pool);

    expect(await ids.nextWorkflowId()).toBe('wf-61');
    expect(await ids.nextPromptId()).toBe('pt-7');
  });
});

describe('alignment only moves the sequence forward', () => {
  test('after many allocations, a fresh allocator continues from the sequence, not from highest+1', async () => {
    await insertIssued(db.pool, { workflowId: 'wf-41', promptId: 'pt-77', jobId: 'job-restored-1' });
    const first = createSequenceAllocator(db.pool);
    const issued: string[] = [];
    for (let i = 0; i < 5; i++) issued.push(await first.nextWorkflowId());
    expect(issued).toEqual(['wf-42', 'wf-43', 'wf-44', 'wf-45', 'wf-46']);

    // A restarted process: its allocator aligns again and must not hand out wf-42 a second time.
    const restarted = createSequenceAllocator(db.pool);
    expect(await restarted.nextWorkflowId()).toBe('wf-47');
  });

  test('a sequence set beyond the highest stored id is kept', async () => {
    await insertIssued(db.pool, { workflowId: 'wf-41', promptId: 'pt-77', jobId: 'job-restored-1' });
    await db.pool.query("SELECT setval('workflow_id_seq', 500), setval('prompt_id_seq', 900)");

    const ids = createSequenceAllocator(db.pool);

    expect(await ids.nextWorkflowId()).toBe('wf-501');
    expect(await ids.nextPromptId()).toBe('pt-901');
  });
});

describe('when a database is configured, a failed sequence call is an error and never falls back to the cache counter', () => {
  test('a schema whose sequence is gone: the allocation rejects and the queue counters are untouched', async () => {
    await db.pool.query('DROP SEQUENCE workflow_id_seq');
    const { rows } = await db.pool.query<{ found: string | null }>(
      "SELECT to_regclass('workflow_id_seq')::text AS found",
    );
    expect(rows[0]!.found).toBeNull();
    const queue = await openQueue();

    const ids = createIdAllocator({ pool: db.pool, queue });

    await expect(ids.nextWorkflowId()).rejects.toBeInstanceOf(IdAllocationError);
    // A retry fails the same way rather than switching to another counter.
    await expect(ids.nextWorkflowId()).rejects.toBeInstanceOf(IdAllocationError);
    // The prompt sequence still exists and keeps working.
    expect(await ids.nextPromptId()).toBe('pt-1');
    expect(await queue.incrementCounter('ids:workflow')).toBe(1);
    expect(await queue.incrementCounter('ids:prompt')).toBe(1);
  });

  test('a pool over a schema with no tables: both kinds reject and the queue counters are untouched', async () => {
    const emptySchema = `${db.schema}_empty`;
    await db.pool.query(`CREATE SCHEMA "${emptySchema}"`);
    try {
      const queue = await openQueue();
      const ids = createIdAllocator({ pool: openPool(emptySchema), queue });

      await expect(ids.nextWorkflowId()).rejects.toBeInstanceOf(IdAllocationError);
      await expect(ids.nextPromptId()).rejects.toBeInstanceOf(IdAllocationError);
      expect(await queue.incrementCounter('ids:workflow')).toBe(1);
      expect(await queue.incrementCounter('ids:prompt')).toBe(1);
    } finally {
      await db.pool.query(`DROP SCHEMA IF EXISTS "${emptySchema}" CASCADE`);
    }
  });
});

describe('the cache counter is the allocator only when no database is configured', () => {
  test('without a pool, ids come from the queue store counter', async () => {
    const queue = await openQueue();
    const ids = createIdAllocator({ queue });

    expect(await ids.nextWorkflowId()).toBe('wf-1');
    expect(await ids.nextWorkflowId()).toBe('wf-2');
    expect(await ids.nextPromptId()).toBe('pt-1');
    // The counter lives in the shared store: another replica's allocator continues it.
    expect(await createIdAllocator({ queue }).nextWorkflowId()).toBe('wf-3');
    expect(await sequenceValue(db.pool, 'workflow_id_seq')).toBe(0);
  });

  test('with a pool, ids come from the sequences and the queue store counter is not used', async () => {
    await db.pool.query("SELECT setval('workflow_id_seq', 100), setval('prompt_id_seq', 200)");
    const queue = await openQueue();
    const ids = createIdAllocator({ pool: db.pool, queue });

    expect(await ids.nextWorkflowId()).toBe('wf-101');
    expect(await ids.nextWorkflowId()).toBe('wf-102');
    expect(await ids.nextPromptId()).toBe('pt-201');
    expect(await sequenceValue(db.pool, 'workflow_id_seq')).toBe(102);
    expect(await sequenceValue(db.pool, 'prompt_id_seq')).toBe(201);
    expect(await queue.incrementCounter('ids:workflow')).toBe(1);
    expect(await queue.incrementCounter('ids:prompt')).toBe(1);
  });
});

test('concurrent allocations from two allocators over the same schema yield distinct ids', async () => {
  await insertIssued(db.pool, { workflowId: 'wf-41', promptId: 'pt-77', jobId: 'job-restored-1' });
  // Two processes starting together: each aligns on its first allocation while the other is allocating.
  const a = createSequenceAllocator(db.pool);
  const b = createSequenceAllocator(openPool(db.schema));

  const workflowIds = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).nextWorkflowId()));
  const promptIds = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? b : a).nextPromptId()));

  expect(new Set(workflowIds).size).toBe(20);
  expect(new Set(promptIds).size).toBe(20);
  const numbers = (ids: string[], prefix: string) =>
    ids.map((id) => Number(id.slice(prefix.length))).sort((x, y) => x - y);
  // Neither allocator's alignment rewound the sequence under the other: exactly the next 20 ids were issued.
  expect(numbers(workflowIds, 'wf-')).toEqual(Array.from({ length: 20 }, (_, i) => 42 + i));
  expect(numbers(promptIds, 'pt-')).toEqual(Array.from({ length: 20 }, (_, i) => 78 + i));
});

import crypto from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { streamJobEvents } from '../../cli/event-stream';
import { findJob, recordSubmission } from '../../db/jobs';
import { recordAndStart } from '../../jobs/record-and-start';
import type { EventEnvelope } from '../../events/envelope';
import { KEEL_STATUS } from '../../pure/search-attributes';
import type { JobInput, JobResult } from '../../workflows/definitions';
import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { asAnswered } from './answered';

/*
 * The submission starts the job's workflow inside its database transaction, so a process that dies between the start
 * and the commit leaves a workflow with no rows. That workflow must end on its own, and a commit that is merely slow
 * must still run the job.
 */

let infra: Infrastructure;
let temporal: TestWorkflowEnvironment;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  temporal = infra.temporal;
  keel = await startKeel(infra);
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

function jobInput(prompt: string, recordWaitMs?: number): JobInput {
  const suffix = crypto.randomUUID().slice(0, 8);
  return {
    ids: { job_id: `job-${crypto.randomUUID()}`, workflow_id: `wf-o${suffix}`, prompt_id: `pt-o${suffix}` },
    prompt,
    createdBy: 'dev',
    recordWaitMs,
  };
}

test('a job started with no row (its submission never committed) ends itself as not_recorded and writes nothing', async () => {
  const input = jobInput('Write orphan.md saying hello', 3_000);
  const handle = await temporal.client.workflow.start('runJob', {
    workflowId: input.ids.job_id,
    taskQueue: keel.taskQueue,
    args: [input],
    typedSearchAttributes: [{ key: KEEL_STATUS, value: 'queued' }],
  });

  const result = (await handle.result()) as JobResult;
  expect(result.status).toBe('not_recorded');
  const described = await handle.describe();
  expect(described.status.name).toBe('COMPLETED');
  expect(described.typedSearchAttributes.get(KEEL_STATUS)).toBe('not_recorded');
  expect(await findJob(infra.db.pool, input.ids.job_id)).toBeUndefined();
  const events = await infra.db.pool.query('SELECT 1 FROM job_events WHERE job_id = $1', [input.ids.job_id]);
  expect(events.rowCount).toBe(0);

  // No level ran: the only activity the workflow ran (locally, recorded as markers) was the status write that found no
  // row.
  const history = await handle.fetchHistory();
  const localActivity = (e: (typeof history.events & object)[number]) => {
    const data = e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
    return data
      ? (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string }).activity_type
      : undefined;
  };
  const ran = (history.events ?? [])
    .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? localActivity(e))
    .filter((name): name is string => Boolean(name));
  expect(new Set(ran)).toEqual(new Set(['markJobStatus']));
  const children = (history.events ?? []).filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
  expect(children).toHaveLength(0);
});

test('a submission whose commit lands seconds after the start still runs the job to its final event', async () => {
  const input = jobInput('Write late.md listing two colours');
  const { job_id: jobId, workflow_id: workflowId, prompt_id: promptId } = input.ids;
  await recordSubmission(
    infra.db.pool,
    {
      jobId,
      workflowId,
      newWorkflow: true,
      promptId,
      prompt: input.prompt,
      createdBy: 'dev',
      orgId: 'org-test',
      taskQueue: keel.taskQueue,
    },
    async () => {
      const clock = await infra.db.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now');
      const startedAt = clock.rows[0]!.now;
      await temporal.client.workflow.start('runJob', { workflowId: jobId, taskQueue: keel.taskQueue, args: [input] });
      // The commit waits until the workflow's first status write has run and found no row: it is the worker's pool (of
      // this file's schema) running `UPDATE job_runs` after the start, seen in pg_stat_activity.
      await eventually(
        async () =>
          (
            await infra.db.pool.query(
              `SELECT 1 FROM pg_stat_activity
               WHERE application_name = $1 AND query LIKE 'UPDATE job_runs%' AND query_start > $2`,
              [infra.db.schema, startedAt],
            )
          ).rowCount! > 0,
        { what: "the job's first status write while its row is uncommitted", intervalMs: 10 },
      );
    },
  );

  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  expect(events.at(-1)?.kind).toBe('final');
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
  expect((await findJob(infra.db.pool, jobId))?.status).toBe('completed');
});

test('rows the database refuses after the start went out: 503, nothing stored, and the started workflow is terminated', async () => {
  const input = jobInput('Write refused.md with one line');
  const { job_id: jobId, prompt_id: promptId } = input.ids;
  // A prompt for a workflow that has no row: its foreign key refuses it while the start, sent alongside, succeeds.
  const submission = recordAndStart(
    keel.deps,
    {
      jobId,
      workflowId: `wf-missing-${crypto.randomUUID().slice(0, 8)}`,
      newWorkflow: false,
      promptId,
      prompt: input.prompt,
      createdBy: 'dev',
      orgId: 'org-test',
      taskQueue: keel.taskQueue,
    },
    { type: 'runJob', args: [input] },
    keel.app.log,
  );
  await expect(asAnswered(submission)).rejects.toMatchObject({ statusCode: 503, code: 'database_unavailable' });
  const described = await temporal.client.workflow.getHandle(jobId).describe();
  expect(described.status.name).toBe('TERMINATED');
  expect(await findJob(infra.db.pool, jobId)).toBeUndefined();
  const prompts = await infra.db.pool.query('SELECT 1 FROM prompt_threads WHERE prompt_id = $1', [promptId]);
  expect(prompts.rowCount).toBe(0);
});

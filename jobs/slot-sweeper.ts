import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import type { Pool } from 'pg';
import { liveSlots, orgQueues, releaseSlots, type SlotPolicy } from '../db/job-slots';
import { jobQueueDepth, jobSlotsRunning } from '../metrics/series';
import { slotGrantedSignal } from '../workflows/definitions';

/** What the sweeper and an admin's limit change need: the database, the process's Temporal client, the policy. */
export interface SlotSweepDeps {
  pool: Pool;
  temporal: Client;
  policy: SlotPolicy;
}

/** How many workflows the sweeper describes at once. */
const DESCRIBE_CONCURRENCY = 16;

async function isClosed(temporal: Client, jobId: string): Promise<boolean> {
  try {
    const described = await temporal.workflow.getHandle(jobId).describe();
    return described.status.name !== 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return true;
    throw err;
  }
}

/**
 * Tells each granted job (the `slotGranted` signal); a job whose workflow has closed cannot take its slot, so it is
 * released and its grant passed on, until every granted job has been told. Returns the jobs told.
 */
export async function tellGranted(deps: SlotSweepDeps, granted: string[]): Promise<string[]> {
  const told: string[] = [];
  let pending = granted;
  while (pending.length > 0) {
    const closed: string[] = [];
    for (const jobId of pending) {
      try {
        await deps.temporal.workflow.getHandle(jobId).signal(slotGrantedSignal);
        told.push(jobId);
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        closed.push(jobId);
      }
    }
    pending = closed.length > 0 ? await releaseSlots(deps.pool, closed, deps.policy) : [];
  }
  return told;
}

/**
 * One sweep (docs/scheduling.md): every slot held, or waited for, by a workflow that has closed without releasing it
 * (terminated from the Temporal UI, or timed out) is released, free slots are granted (an admin may have raised a
 * limit) and the jobs granted are told. Safe on every API replica at once: the grants are decided under one lock.
 * `retell`: every open job holding a slot is told again too (a process's first sweep, below).
 */
export async function sweepSlots(
  deps: SlotSweepDeps,
  options: { retell?: boolean } = {},
): Promise<{ released: string[]; granted: string[] }> {
  const live = await liveSlots(deps.pool);
  const released: string[] = [];
  const holding: string[] = [];
  for (let i = 0; i < live.length; i += DESCRIBE_CONCURRENCY) {
    const batch = live.slice(i, i + DESCRIBE_CONCURRENCY);
    const closed = await Promise.all(batch.map((row) => isClosed(deps.temporal, row.job_id)));
    batch.forEach((row, j) => {
      if (closed[j]) released.push(row.job_id);
      else if (row.state === 'running') holding.push(row.job_id);
    });
  }
  const newly = await releaseSlots(deps.pool, released, deps.policy);
  const granted = await tellGranted(deps, [...new Set([...newly, ...(options.retell ? holding : [])])]);
  const orgs = await orgQueues(deps.pool);
  jobQueueDepth.reset();
  jobSlotsRunning.reset();
  for (const org of orgs) {
    jobQueueDepth.set({ org: org.org_id }, org.queued);
    jobSlotsRunning.set({ org: org.org_id }, org.running);
  }
  return { released, granted };
}

/**
 * Runs `sweepSlots` every `everyMs` until stopped; a failed sweep is logged and the next one tries again. The process's
 * first sweep (until one succeeds) tells every job holding a slot again: an API killed between a grant's commit and
 * its signal (its sweep, or an admin's raised limit) left the job granted but waiting, until its own re-claim timer
 * (JOB_SLOT_RECLAIM_MS). A job already running ignores the signal; one signal per running job per API start.
 */
export function startSlotSweeper(deps: SlotSweepDeps, everyMs: number, log: FastifyBaseLogger): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let retell = true;
  const timer = setInterval(() => {
    running = running.then(() =>
      sweepSlots(deps, { retell }).then(
        ({ released, granted }) => {
          retell = false;
          if (released.length > 0) log.info({ released, granted }, 'released the slots of closed jobs');
        },
        (err: unknown) => log.warn({ err }, 'slot sweep failed; the next one retries'),
      ),
    );
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

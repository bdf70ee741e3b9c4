import type { Pool } from 'pg';
import { eventually } from './eventually';

/*
 * What a fair-scheduling test does through the API (docs/scheduling.md) and reads from the job_slots rows: submit,
 * read a job's status and queue place, answer its question, cancel it, and check the slots' history.
 */

export interface JobView {
  status: string;
  queue: { state: 'queued' | 'running' | 'released'; position: number | null; reason: string | null } | null;
  pending: { questions: Array<{ call_id: string }> | null } | null;
}

export interface SlotRow {
  job_id: string;
  state: 'queued' | 'running' | 'released';
  granted_at: Date | null;
  released_at: Date | null;
}

/** A client of one API address (a function: a restarted API may listen elsewhere) with one token. */
export function slotClient(baseUrl: () => string, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const client = {
    async submit(prompt: string): Promise<string> {
      const res = await fetch(`${baseUrl()}/v1/chat`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt }),
      });
      if (res.status !== 202) throw new Error(`POST /v1/chat answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { job_id: string }).job_id;
    },
    async view(jobId: string): Promise<JobView> {
      const res = await fetch(`${baseUrl()}/v1/jobs/${jobId}`, { headers });
      if (res.status !== 200) throw new Error(`GET /v1/jobs/${jobId} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as JobView;
    },
    /** A job holding the slot while paused on its question (`#ask`): it runs until answered or ended. */
    async holding(jobId: string): Promise<JobView> {
      return eventually(
        async () => {
          const v = await client.view(jobId);
          return v.status === 'paused' && v.queue?.state === 'running' && (v.pending?.questions?.length ?? 0) > 0
            ? v
            : undefined;
        },
        { what: `${jobId} running and paused on its question`, timeoutMs: 120_000 },
      );
    },
    async queued(jobId: string): Promise<JobView> {
      return eventually(
        async () => {
          const v = await client.view(jobId);
          return v.status === 'queued' && v.queue?.state === 'queued' ? v : undefined;
        },
        { what: `${jobId} queued`, timeoutMs: 90_000 },
      );
    },
    /** Answers the job's open question (it must be paused on one). */
    async answer(jobId: string, answer: string): Promise<void> {
      const v = await client.holding(jobId);
      const res = await fetch(`${baseUrl()}/v1/jobs/${jobId}/resume`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ call_id: v.pending!.questions![0]!.call_id, answer }),
      });
      if (res.status !== 200) throw new Error(`resume answered ${res.status}: ${await res.text()}`);
    },
    async cancel(jobId: string): Promise<void> {
      const res = await fetch(`${baseUrl()}/v1/jobs/${jobId}/cancel`, { method: 'POST', headers });
      if (res.status !== 202) throw new Error(`cancel answered ${res.status}: ${await res.text()}`);
    },
    /** Waits for the job's final status (and its slot released): a job reads its status before its release runs. */
    async ended(jobId: string, status: 'completed' | 'failed' | 'cancelled'): Promise<void> {
      await eventually(
        async () => {
          const v = await client.view(jobId);
          if (['completed', 'failed', 'cancelled'].includes(v.status) && v.status !== status) {
            throw new Error(`${jobId} ended ${v.status}, not ${status}`);
          }
          return v.status === status && v.queue?.state === 'released';
        },
        { what: `${jobId} ${status} with its slot released`, timeoutMs: 300_000, intervalMs: 250 },
      );
    },
  };
  return client;
}

/** The jobs' slot rows, in the order given. */
export async function slotRows(pool: Pool, jobIds: string[]): Promise<SlotRow[]> {
  const { rows } = await pool.query<SlotRow>(
    'SELECT job_id, state, granted_at, released_at FROM job_slots WHERE job_id = ANY($1)',
    [jobIds],
  );
  return jobIds.map((id) => rows.find((r) => r.job_id === id)!);
}

/** Slots held or waited for: none once every job has ended. */
export async function liveSlotCount(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM job_slots WHERE state <> 'released'`,
  );
  return rows[0]!.n;
}

/**
 * The most slots held at once over the rows' history (granted_at to released_at; a release at the same instant as a
 * grant comes first, as the grant pass runs after the release in one transaction).
 */
export function mostHeldAtOnce(rows: SlotRow[]): number {
  const moments = rows
    .filter((r) => r.granted_at)
    .flatMap((r) => [
      { at: r.granted_at!.getTime(), delta: 1 },
      ...(r.released_at ? [{ at: r.released_at.getTime(), delta: -1 }] : []),
    ])
    .sort((a, b) => a.at - b.at || a.delta - b.delta);
  let held = 0;
  let most = 0;
  for (const m of moments) {
    held += m.delta;
    most = Math.max(most, held);
  }
  return most;
}

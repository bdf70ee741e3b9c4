import type { PendingInput } from './api';
import type { RenderStyle } from './render';
import { fit } from './render';

/** One row of `keel jobs` (and of its --json array). */
export interface JobRow {
  job_id: string;
  status: string;
  updated_at: string;
  workflow_id: string;
  project_slug: string | null;
  scenario: string;
  /** What a paused job waits for (GET /v1/jobs/:id), on pending rows only. */
  pending?: PendingInput | null;
  /** Where a job waiting for a slot stands in its org's queue (docs/scheduling.md), on queued rows only. */
  queue?: { position: number | null; reason: string | null };
}

/** The status cell: a queued job waiting for a slot says its place, `queued #3`. */
function statusCell(row: JobRow): string {
  return row.queue?.position ? `${row.status} #${row.queue.position}` : row.status;
}

/** Quoted for a POSIX shell when it holds anything but plain id characters. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_.:@/-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The command that answers one `ask_user` question of a job. */
export function answerCommand(jobId: string, callId: string): string {
  return `keel answer ${shellWord(jobId)} --call ${shellWord(callId)} "<your answer>"`;
}

/**
 * What a paused job waits for, each with the exact command that gives it: a question's `keel answer` names its call
 * (a job may ask more than one), an approval's `keel approve` its id.
 */
export function renderPending(jobId: string, pending: PendingInput): string[] {
  const lines: string[] = [];
  for (const q of pending.questions ?? []) {
    lines.push(`  ${q.role} asks: ${q.question}`);
    lines.push(`    ${answerCommand(jobId, q.call_id)}`);
  }
  for (const a of pending.approvals) {
    lines.push(`  ${a.role} asks approval for: ${a.action}${a.reason ? ` (${a.reason})` : ''}`);
    lines.push(
      `    keel approve ${shellWord(a.approval_id)}    (or: keel approve ${shellWord(a.approval_id)} --reject)`,
    );
  }
  if (pending.questions === null) {
    lines.push(`  its questions could not be read (is a worker running?); keel watch ${shellWord(jobId)} shows them`);
  }
  return lines.length > 0 ? [`job ${jobId} waits for a person:`, ...lines] : [];
}

const TONES: Record<string, [number, number]> = {
  completed: [32, 39],
  failed: [31, 39],
  cancelled: [33, 39],
  running: [36, 39],
};

/** A table with a header; columns sized to their content, the project cut to fit the terminal's width. */
export function renderJobRows(rows: JobRow[], style: RenderStyle): string {
  if (rows.length === 0) return 'no jobs';
  const cells = rows.map((row) => [
    row.job_id,
    statusCell(row),
    row.updated_at.replace('T', ' ').slice(0, 19),
    row.workflow_id,
    row.scenario,
    row.project_slug ?? '-',
  ]);
  const header = ['JOB', 'STATUS', 'UPDATED (UTC)', 'WORKFLOW', 'SCENARIO', 'PROJECT'];
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((c) => [...c[i]!].length)));
  const line = (values: string[], paintStatus: boolean) =>
    values
      .map((value, i) => {
        const last = i === values.length - 1;
        const used = widths.slice(0, i).reduce((sum, w) => sum + w + 2, 0);
        const text = last && style.width ? fit(value, Math.max(4, style.width - used)) : value.padEnd(widths[i]!);
        const tone = TONES[value.split(' ')[0]!];
        return paintStatus && i === 1 && style.color && tone ? `\u001b[${tone[0]}m${text}\u001b[${tone[1]}m` : text;
      })
      .join('  ')
      .trimEnd();
  const table = [line(header, false), ...cells.map((c) => line(c, true))];
  if (rows.some((r) => r.queue)) {
    table.push('', "#N: the job waits for a slot of its org, N-th in its org's queue (docs/scheduling.md)");
  }
  return table.join('\n');
}

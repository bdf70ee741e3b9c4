import { eventAppendSeconds, jobsFinished, levelRetries, levelRuns } from '../metrics/series';
import type { EventEnvelope } from './envelope';

/** What a job's terminal event says about how it ended, in the job status's words. */
function terminalStatus(envelope: EventEnvelope): string | undefined {
  if (envelope.kind === 'final') return 'completed';
  if (envelope.kind !== 'error') return undefined;
  return envelope.payload.code === 'cancelled' ? 'cancelled' : 'failed';
}

/**
 * Counts what one stored event says about jobs and levels. Every event passes through the append activity once
 * (a retried append is the same stored event, so callers observe only a first store), which makes it the one
 * place these series are kept, whatever workflow emitted them.
 */
export function observeStoredEvent(envelope: EventEnvelope, appendSeconds: number): void {
  eventAppendSeconds.observe(appendSeconds);
  const role = envelope.agent_role;
  if (envelope.kind === 'level_finished') levelRuns.inc({ role, outcome: envelope.payload.ok ? 'ok' : 'failed' });
  if (envelope.kind === 'level_started' && Number(envelope.payload.attempt) > 1) levelRetries.inc({ role });
  // A job ends with exactly one final or error, whichever level emits it.
  const status = terminalStatus(envelope);
  if (status) jobsFinished.inc({ status });
}

import { ApplicationFailure, log } from '@temporalio/activity';
import { jobEventsChannel } from '../events/job-event-feed';
import type { Pool } from 'pg';
import { z } from 'zod';
import { appendEvents as storeEvents, JobNotRecordedError, type EventIds } from '../events/store';
import { checkPayload, eventDraft, type EventDraft, type EventEnvelope } from '../events/envelope';
import { observeStoredEvent } from '../events/metrics';
import type { QueueStore } from '../queue/queue-store';
import { activeTraceId } from '../telemetry/spans';
import { INVALID_EVENT, JOB_NOT_RECORDED } from '../pure/contracts';
import type { WebhookSettings } from '../webhooks/config';
import { startWebhookDelivery } from './webhooks';
import type { AnswerLinkSettings } from '../answer-links/config';
import { answerUrlFor } from '../answer-links/mint';

export interface AppendEventInput {
  ids: EventIds;
  draft: EventDraft;
  /** When set, `payload.duration_ms` is measured from this ISO time on the activity's clock. */
  durationSince?: string;
}

/** Several events of one job, stored in this order. */
export interface AppendEventsInput {
  ids: EventIds;
  events: Array<Omit<AppendEventInput, 'ids'>>;
}

/**
 * The job's trace id on every event stored while a trace is recorded (the envelope is exactly the spec's fields, so it
 * rides in the payload), for going from an event to its trace. Added after the kind's contract, which would drop it.
 */
function withTraceId(payload: Record<string, unknown>): Record<string, unknown> {
  const traceId = activeTraceId();
  return traceId ? { ...payload, trace_id: traceId } : payload;
}

/**
 * The signed answer link of an event that asks a person (docs/answer-links.md), minted here because it needs the
 * deployment's secret, which workflow code never holds. On a retried append the stored event (and its link) wins.
 */
function withAnswerUrl(
  settings: AnswerLinkSettings | undefined,
  jobId: string,
  kind: string,
  payload: Record<string, unknown>,
): Record<string, unknown> {
  const url = settings && answerUrlFor(settings, jobId, kind, payload, Date.now());
  return url ? { ...payload, answer_url: url } : payload;
}

export function eventActivities(deps: {
  pool: Pool;
  queue: QueueStore;
  webhooks?: WebhookSettings;
  /** Absent: events carry no `answer_url` (no answer-link secret configured). */
  answerLinks?: AnswerLinkSettings;
}) {
  /** The draft as it is stored: parsed, its kind's contract applied, duration, trace id and answer link added. */
  const prepare = (ids: EventIds, input: Omit<AppendEventInput, 'ids'>): EventDraft => {
    try {
      const parsed = eventDraft.parse(input.draft);
      const payload = { ...parsed.payload };
      if (input.durationSince) {
        payload.duration_ms = Math.max(0, Date.now() - Date.parse(input.durationSince));
      }
      const checked = checkPayload(parsed.kind, payload);
      return { ...parsed, payload: withTraceId(withAnswerUrl(deps.answerLinks, ids.job_id, parsed.kind, checked)) };
    } catch (err) {
      const detail = err instanceof z.ZodError ? z.prettifyError(err) : (err as Error).message;
      throw ApplicationFailure.create({
        type: INVALID_EVENT,
        message: `event ${input.draft.kind} is invalid: ${detail}`,
        nonRetryable: true,
      });
    }
  };

  /**
   * Stores the drafts in order in one statement (idempotent on each key; the job's next sequences), then
   * publishes each to the job's live channel in order. A retried append republishes the stored envelopes,
   * which subscribers drop by sequence.
   */
  const append = async (ids: EventIds, drafts: EventDraft[]): Promise<EventEnvelope[]> => {
    try {
      const started = performance.now();
      const stored = await storeEvents(deps.pool, ids, drafts);
      const seconds = (performance.now() - started) / 1000 / stored.length;
      for (const { envelope, duplicate } of stored) {
        // The live channel only shortens a stream's wait: the stored row is the event, and streams read the stored
        // backlog when no message comes. A queue store (Redis) outage must not hold the job up.
        await deps.queue.publish(jobEventsChannel(ids.job_id), JSON.stringify(envelope)).catch((err: unknown) => {
          log.warn('event not published live (queue store)', { error: String(err) });
        });
        if (!duplicate) observeStoredEvent(envelope, seconds);
        // On a duplicate too: the attempt that stored the event may have died before the delivery started. Unlike the
        // live channel, a failure here fails the append, which is retried, so a subscribed event is delivered at least
        // once (docs/webhooks.md); a delivery already started is not started again.
        await startWebhookDelivery(deps, envelope);
      }
      return stored.map((s) => s.envelope);
    } catch (err) {
      // The job row commits with the submission; until then, retry.
      if (err instanceof JobNotRecordedError)
        throw ApplicationFailure.create({ message: err.message, type: JOB_NOT_RECORDED });
      throw err;
    }
  };

  return {
    /**
     * Stores the event (idempotent on `draft.key`; the job's next sequence in the same statement)
     * and publishes it to the job's live channel. A retried append republishes the stored envelope,
     * which subscribers drop by sequence.
     */
    async appendEvent(input: AppendEventInput): Promise<EventEnvelope> {
      return (await append(input.ids, [prepare(input.ids, input)]))[0]!;
    },

    /**
     * Stores several events of one job in order, as appendEvent stores one, in one statement: a workflow that has
     * several events to tell with nothing between them tells them with one local activity (docs/job-history.md).
     */
    async appendEvents(input: AppendEventsInput): Promise<EventEnvelope[]> {
      return append(
        input.ids,
        input.events.map((event) => prepare(input.ids, event)),
      );
    },
  };
}

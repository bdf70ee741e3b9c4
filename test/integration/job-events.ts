import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import type { KeelUnderTest } from './harness';

/**
 * Every event of the job so far, read as `keel` clients read them (the stream replays from the start and closes at the
 * terminal event); `done` decides when to stop reading earlier.
 */
export async function eventsUntil(
  keel: Pick<KeelUnderTest, 'baseUrl' | 'token'>,
  jobId: string,
  done: (events: EventEnvelope[]) => boolean,
): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  const controller = new AbortController();
  try {
    for await (const event of streamJobEvents({
      baseUrl: keel.baseUrl,
      token: keel.token,
      jobId,
      signal: controller.signal,
    })) {
      events.push(event);
      if (done(events)) break;
    }
  } finally {
    controller.abort();
  }
  return events;
}

import { expect } from '@jest/globals';
import { streamJobMessages, type JobStreamMessage } from '../../cli/event-stream';
import type { LiveDelta } from '../../events/live-deltas';
import type { KeelUnderTest } from './harness';

/**
 * Submits `prompt` as a client would (POST /v1/chat) and reads the job's whole stream, deltas included, into `messages`
 * as it arrives; `streamed` settles when the stream ends (after `final`). `executor` is the first executor run's level id.
 */
export async function submitAndWatch(keel: KeelUnderTest, prompt: string) {
  const submitted = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  expect(submitted.status).toBe(202);
  const { job_id: jobId } = (await submitted.json()) as { job_id: string };
  const messages: JobStreamMessage[] = [];
  const streamed = (async () => {
    for await (const message of streamJobMessages({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
      messages.push(message);
    }
  })();
  return { jobId, executor: `${jobId}/L4.executor/1`, messages, streamed };
}

/**
 * What a client must see when a level's streamed model call fails part-way and the walk moves on (a 429 after some
 * tokens, a stalled stream): a gap-free durable log ending `final`; the call's two attempts on the live channel, the
 * first model's ending in a `discard` heard before anything of the second; one `model_fallback` of the level with
 * `reason`; the level finished on the second model; and the file the job wrote is the second attempt's, whole.
 * Returns the durable events for the caller's own checks.
 */
export async function expectMidStreamFallback(
  keel: KeelUnderTest,
  jobId: string,
  messages: readonly JobStreamMessage[],
  level: { levelId: string; role: string },
  models: { first: string; second: string; provider: string; reason: string },
) {
  const events = messages.flatMap((m) => (m.type === 'event' ? [m.event] : []));
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)?.kind).toBe('final');

  const levelDeltas = messages.flatMap((m, index) =>
    m.type === 'delta' && m.delta.level_id === level.levelId ? [{ index, delta: m.delta }] : [],
  );
  const firstCall = levelDeltas[0]!.delta.call_id;
  const ofCall = levelDeltas.filter(({ delta }) => delta.call_id === firstCall);
  const attempts = [...new Set(ofCall.map(({ delta }) => delta.attempt))];
  expect(attempts).toHaveLength(2);
  const [dropped, answered] = attempts.map((attempt) => ofCall.filter(({ delta }) => delta.attempt === attempt));
  expect(dropped!.every(({ delta }) => delta.model === models.first)).toBe(true);
  expect(answered!.every(({ delta }) => delta.model === models.second)).toBe(true);
  expect(dropped!.some(({ delta }) => delta.kind === 'tool_arguments' && delta.text.length > 0)).toBe(true);
  const discard = dropped!.find(({ delta }) => delta.kind === 'discard');
  expect(discard).toBeDefined();
  expect(dropped!.at(-1)).toBe(discard);
  // The client hears the discard before anything of the new attempt.
  expect(discard!.index).toBeLessThan(answered![0]!.index);
  expect(answered!.at(-1)!.delta.kind).toBe('end');

  const fallbacks = events.filter((e) => e.kind === 'model_fallback' && e.payload.level_id === level.levelId);
  expect(fallbacks).toHaveLength(1);
  expect(fallbacks[0]).toMatchObject({
    agent_role: level.role,
    payload: { from_model: models.first, to_model: models.second, to_provider: models.provider, reason: models.reason },
  });
  const finished = events.find((e) => e.kind === 'level_finished' && e.payload.level_id === level.levelId);
  expect(finished?.payload).toMatchObject({ model: models.second });

  // The file the job wrote is the one the second attempt streamed, whole; the first attempt's was a part of it.
  const argsOf = (deltas: Array<{ delta: LiveDelta }>) =>
    deltas
      .filter(({ delta }) => delta.kind === 'tool_arguments')
      .map(({ delta }) => delta.text)
      .join('');
  const written = JSON.parse(argsOf(answered!)) as { path: string; content: string };
  expect(argsOf(dropped!).length).toBeLessThan(argsOf(answered!).length);
  const created = events.find((e) => e.kind === 'file_created' && e.payload.level_id === level.levelId);
  expect(created?.payload).toMatchObject({ path: written.path });
  const file = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/files/${written.path}`, {
    headers: { authorization: `Bearer ${keel.token}` },
  });
  expect(file.status).toBe(200);
  expect(await file.text()).toBe(written.content);
  return events;
}

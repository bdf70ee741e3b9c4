import { spawn } from 'node:child_process';
import path from 'node:path';
import { jobDeltaBuffers, liveDelta, type LiveDelta } from '../../events/live-deltas';
import { eventEnvelope, type EventEnvelope } from '../../events/envelope';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { eventually } from './eventually';
import { runJobToEnd, startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { startPausedStreamModel } from './paused-stream-model';

/**
 * Live model output end to end: the worker streams the offline demo model's answers, publishes the deltas on the
 * job's live channel, and `GET /v1/jobs/:id/stream` carries them as `event: delta` messages with no `id:`, read here
 * by a plain `fetch` client. The executor's stream is paused part-way (a proxy in front of the demo model), so a
 * client can join in the middle of the call.
 */
let infra: Infrastructure;
let demo: DemoModelServer;
let paused: Awaited<ReturnType<typeof startPausedStreamModel>>;
let keel: KeelUnderTest;

const PROMPT = 'Write notes.md about durable workflows';

beforeAll(async () => {
  infra = await startInfrastructure();
  demo = await startDemoModelServer();
  paused = await startPausedStreamModel({ upstream: demo.baseUrl, level: 'L4.executor', afterEvents: 8 });
  keel = await startKeel({ ...infra, demoBaseUrl: paused.baseUrl });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await paused?.close();
  await demo?.close();
  await infra?.close();
});

/** One message of an event stream, with the fields its lines set (no `id` when it had no `id:` line). */
interface Frame {
  id?: string;
  event?: string;
  data: string;
}

/** A plain `fetch` reader of a job's stream, message by message, as the bytes arrive. */
function openStream(jobId: string, options: { lastEventId?: number; query?: string } = {}) {
  const controller = new AbortController();
  const frames: Frame[] = [];
  let ended = false;
  const done = (async () => {
    const headers: Record<string, string> = { authorization: `Bearer ${keel.token}`, accept: 'text/event-stream' };
    if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
    const response = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/stream${options.query ?? ''}`, {
      headers,
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(piece, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const frame = parseFrame(buffered.slice(0, end));
          buffered = buffered.slice(end + 2);
          if (frame) frames.push(frame);
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
    ended = true;
  })();
  return {
    frames,
    done,
    get ended() {
      return ended;
    },
    durable: () => frames.filter((f) => f.event === undefined).map((f) => eventEnvelope.parse(JSON.parse(f.data))),
    deltas: () => frames.filter((f) => f.event === 'delta').map((f) => liveDelta.parse(JSON.parse(f.data))),
    close: async () => {
      controller.abort();
      await done.catch(() => undefined);
    },
  };
}

function parseFrame(text: string): Frame | undefined {
  const frame: Partial<Frame> = {};
  const data: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'id' || field === 'event') frame[field] = value;
  }
  return data.length > 0 ? { ...frame, data: data.join('\n') } : undefined;
}

/** A call's output as a client puts it together from deltas: per part, each delta appended at its offset. */
function assemble(deltas: LiveDelta[]): Map<string, string> {
  const parts = new Map<string, string>();
  for (const delta of deltas) {
    if (delta.kind === 'discard' || delta.kind === 'end') continue;
    const key = `${delta.call_id} ${delta.attempt} ${delta.kind} ${delta.tool_call_index ?? 0}`;
    const have = parts.get(key) ?? '';
    // Each delta starts exactly where the text so far ends: nothing repeated, nothing missing.
    expect(delta.offset).toBe(have.length);
    parts.set(key, have + delta.text);
  }
  return parts;
}

async function submit(prompt: string): Promise<string> {
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

test('a client that reconnects mid-call gets the partial output, then the rest live, with every durable event once', async () => {
  const jobId = await submit(PROMPT);
  const executor = `${jobId}/L4.executor/1`;
  const first = openStream(jobId);
  const scripted = openStream(jobId, { query: '?deltas=0' });

  // The executor's answer is streaming and paused part-way: the first client has seen some of it.
  await paused.reached;
  await eventually(() => first.deltas().some((d) => d.level_id === executor && d.text.length > 0), {
    what: "the executor's first deltas on the stream",
    intervalMs: 25,
  });
  const seenBefore = first.deltas().filter((d) => d.level_id === executor);
  const lastDurable = first.durable().at(-1)!.sequence;
  await first.close();
  // Deltas carry no `id:`: the last id an EventSource would send back is the last durable sequence.
  expect(first.frames.filter((f) => f.event === 'delta').every((f) => f.id === undefined)).toBe(true);
  expect(first.frames.filter((f) => f.event === undefined).every((f) => f.id !== undefined)).toBe(true);

  const second = openStream(jobId, { lastEventId: lastDurable });
  // The partial output so far arrives first, from the call's buffer.
  await eventually(
    () => {
      const text = [...assemble(second.deltas().filter((d) => d.level_id === executor)).values()].join('');
      return text.length >= [...assemble(seenBefore).values()].join('').length ? text : undefined;
    },
    { what: "the executor's partial output replayed to the reconnected client", intervalMs: 25 },
  );
  expect(assemble(second.deltas().filter((d) => d.level_id === executor))).toEqual(assemble(seenBefore));

  paused.release();
  await second.done;
  await scripted.done;

  // Durable events: the first client's, then the second's, are 1..n once each, ending with `final`.
  const durable = [...first.durable(), ...second.durable()];
  expect(durable.map((e) => e.sequence)).toEqual(durable.map((_, i) => i + 1));
  expect(durable.at(-1)!.kind).toBe('final');
  // The script that asked for durable events only got exactly those, and no delta.
  expect(scripted.frames.some((f) => f.event === 'delta')).toBe(false);
  expect(scripted.durable().map((e) => e.sequence)).toEqual(durable.map((e) => e.sequence));

  // What streamed for the executor's call is its write_file call: the file its durable events report.
  const calls = assemble(second.deltas().filter((d) => d.level_id === executor));
  const args = [...calls.entries()].find(([key]) => key.includes('tool_arguments'))?.[1];
  const created = durable.find((e) => e.kind === 'file_created' && e.payload.level_id === executor)!;
  expect(JSON.parse(args!)).toMatchObject({ path: created.payload.path });
  expect(second.deltas().some((d) => d.level_id === executor && d.kind === 'end')).toBe(true);
  // Every call is over: no buffer is left for a client that joins now.
  expect(await infra.queue.readBounded(jobDeltaBuffers(jobId))).toEqual([]);
});

test('a job leaves as many Temporal history events and stored event rows with streaming on as off', async () => {
  const count = async (target: KeelUnderTest, events: EventEnvelope[], jobId: string) => {
    const levels = [
      ...new Set(events.flatMap((e) => (e.kind === 'level_started' ? [String(e.payload.level_id)] : []))),
    ];
    // `final` is on the stream a moment before the job workflow completes: count its history once it has.
    await infra.temporal.client.workflow.getHandle(jobId).result();
    let history = 0;
    for (const workflowId of [jobId, ...levels]) {
      const fetched = await infra.temporal.client.workflow.getHandle(workflowId).fetchHistory();
      history += fetched.events?.length ?? 0;
    }
    const rows = await infra.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM job_events WHERE job_id = $1', [
      jobId,
    ]);
    return { levels: levels.length, history, rows: Number(rows.rows[0]!.n) };
  };
  // The streaming stack, straight to the demo model this time (no pause).
  const streaming = await startKeel({ ...infra, demoBaseUrl: demo.baseUrl });
  const unstreamed = await startKeel({ ...infra, demoBaseUrl: demo.baseUrl });
  try {
    await streaming.startWorker();
    await unstreamed.startWorker({ liveOutput: { enabled: false } });
    const on = await runJobToEnd(streaming, PROMPT);
    const off = await runJobToEnd(unstreamed, PROMPT);
    expect(on.events.at(-1)!.kind).toBe('final');
    expect(off.events.map((e) => e.kind)).toEqual(on.events.map((e) => e.kind));
    const [withStreaming, without] = [
      await count(streaming, on.events, on.jobId),
      await count(unstreamed, off.events, off.jobId),
    ];
    expect(withStreaming.levels).toBeGreaterThan(0);
    expect(withStreaming).toEqual(without);
  } finally {
    await streaming.close();
    await unstreamed.close();
  }
});

/** `keel job` with these arguments against the stack: its exit code and stdout. */
function keelJob(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const cli = [path.join(__dirname, 'ts-entry.js'), path.join(__dirname, '..', '..', 'cli', 'keel.ts')];
  const child = spawn(process.execPath, [...cli, 'job', ...args], {
    env: { PATH: process.env.PATH, KEEL_API_URL: keel.baseUrl, KEEL_TOKEN: keel.token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout })));
}

test('keel job --json prints durable events only; with --deltas the live output too, as {"delta": …} lines', async () => {
  // The proxy's one pause belongs to the first test; these jobs run straight through.
  paused.release();
  const plain = await keelJob([PROMPT, '--json']);
  expect(plain.code).toBe(0);
  const plainLines = plain.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(plainLines.every((line) => typeof line.sequence === 'number')).toBe(true);

  const withDeltas = await keelJob([PROMPT, '--json', '--deltas']);
  expect(withDeltas.code).toBe(0);
  const lines = withDeltas.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const durable = lines.filter((line) => !('delta' in line)).map((line) => eventEnvelope.parse(line));
  const deltas = lines.filter((line) => 'delta' in line).map((line) => liveDelta.parse(line.delta));
  expect(durable.map((e) => e.sequence)).toEqual(durable.map((_, i) => i + 1));
  expect(durable.map((e) => e.kind)).toEqual(plainLines.map((line) => line.kind));
  const executor = deltas.filter((d) => d.level_id === `${durable[0]!.job_id}/L4.executor/1`);
  const args = [...assemble(executor).entries()].find(([key]) => key.includes('tool_arguments'))?.[1];
  expect(JSON.parse(args!)).toMatchObject({ path: 'notes.md' });
});

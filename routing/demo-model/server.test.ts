import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionTool } from 'openai/resources/chat/completions';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { demoFileFor, respond } from './respond';
import { startDemoModelServer } from './server';
import type { DemoModelServer } from './server';
import type { Sleep } from './reply-delay';

const writeFileTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'write_file',
    description: 'Writes a file in the job workspace.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
};

const prompt = 'Write hello.md that greets the reader';
const executorSystem = 'You are the executor.\nKeel level: L4.executor';

let server: DemoModelServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startDemoModelServer({ now: () => 1_700_000_000_500 });
  client = new OpenAI({ apiKey: 'not-needed', baseURL: server.baseUrl, maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
});

async function postRaw(path: string, body: string, contentType = 'application/json'): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
}

describe('startDemoModelServer', () => {
  it('serves on loopback under /v1', () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('answers a plain completion', async () => {
    const completion = await client.chat.completions.create({
      model: 'keel-demo',
      messages: [
        { role: 'system', content: 'Keel level: L1.team_lead' },
        { role: 'user', content: `Request:\n${prompt}` },
      ],
    });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'keel-demo',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant' } }],
    });
    expect(completion.id).toMatch(/^chatcmpl-[0-9a-f]{24}$/);
    expect(completion.choices[0]?.message.content).toMatch(/^Plan for hello\.md:\n1\. L2 /);
    const usage = completion.usage;
    expect(usage?.prompt_tokens).toBe(
      Math.ceil(('Keel level: L1.team_lead'.length + `Request:\n${prompt}`.length) / 4),
    );
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
  });

  it('accepts and echoes an unknown model name', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-imaginary',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.model).toBe('gpt-imaginary');
    expect(completion.choices[0]?.message.content).toContain('received: "hi"');
  });

  it('runs a tool-calling round trip: call, tool result, final text', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: executorSystem },
      { role: 'user', content: `## Task\nTask: Write hello.md\n\nRequest:\n${prompt}` },
    ];
    const first = await client.chat.completions.create({ model: 'keel-demo', messages, tools: [writeFileTool] });
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function tool call');
    expect(call.id).toMatch(/^call_[0-9a-f]{16}$/);
    expect(call.function.name).toBe('write_file');
    expect(JSON.parse(call.function.arguments)).toEqual(demoFileFor(prompt));

    messages.push(choice!.message, { role: 'tool', tool_call_id: call.id, content: 'wrote 34 bytes' });
    const second = await client.chat.completions.create({ model: 'keel-demo', messages, tools: [writeFileTool] });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toBe('Wrote hello.md.');
  });

  it('streams a text completion that reassembles to the non-streamed one', async () => {
    const body = {
      model: 'keel-demo',
      messages: [
        { role: 'system' as const, content: 'Keel level: L2.architect' },
        { role: 'user' as const, content: `Request:\n${prompt}` },
      ],
    };
    const whole = await client.chat.completions.create(body);
    const stream = await client.chat.completions.create({
      ...body,
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let finishReason: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.id).toBe(whole.id);
      content += chunk.choices[0]?.delta.content ?? '';
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      usage = chunk.usage ?? usage;
    }
    expect(chunks).toBeGreaterThan(3);
    expect(content).toBe(whole.choices[0]?.message.content);
    expect(finishReason).toBe('stop');
    expect(usage).toEqual(whole.usage);
  });

  it('streams tool-call deltas that the client assembles into the same call', async () => {
    const body = {
      model: 'keel-demo',
      messages: [
        { role: 'system' as const, content: executorSystem },
        { role: 'user' as const, content: `Request:\n${prompt}` },
      ],
      tools: [writeFileTool],
    };
    const whole = await client.chat.completions.create(body);
    const final = await client.chat.completions.stream(body).finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.choices[0]?.message.tool_calls).toEqual(whole.choices[0]?.message.tool_calls);
  });

  it('ends the SSE stream with data: [DONE]', async () => {
    const response = await postRaw(
      '/chat/completions',
      JSON.stringify({ model: 'keel-demo', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await response.text()).split('\n\n').filter((frame) => frame.length > 0);
    expect(frames.every((frame) => frame.startsWith('data: '))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
  });

  it('lists keel-demo', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    expect(models).toEqual([expect.objectContaining({ id: 'keel-demo', object: 'model', owned_by: 'keel' })]);
    await expect(client.models.retrieve('keel-demo')).resolves.toMatchObject({ id: 'keel-demo' });
  });

  it('rejects a body without messages with a 400 in the OpenAI error shape', async () => {
    const malformed = { model: 'keel-demo' } as unknown as ChatCompletionCreateParamsNonStreaming;
    const error: unknown = await client.chat.completions.create(malformed).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const apiError = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(apiError.status).toBe(400);
    expect(apiError.type).toBe('invalid_request_error');
    expect(apiError.param).toBe('messages');
    expect(apiError.code).toBe('invalid_request_body');
    expect(apiError.message).toContain("'messages'");
  });

  it.each([
    ['a message without a role', JSON.stringify({ model: 'keel-demo', messages: [{ content: 'hi' }] })],
    ['empty messages', JSON.stringify({ model: 'keel-demo', messages: [] })],
    ['a missing model', JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] })],
    ['a tool message without tool_call_id', JSON.stringify({ model: 'm', messages: [{ role: 'tool', content: 'x' }] })],
    ['a JSON null body', 'null'],
    ['malformed JSON', '{"model": '],
    ['an empty body', ''],
  ])('answers %s with a 400 error body', async (_label, body) => {
    const response = await postRaw('/chat/completions', body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: Record<string, unknown> };
    expect(Object.keys(json)).toEqual(['error']);
    expect(Object.keys(json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(json.error.type).toBe('invalid_request_error');
    expect(typeof json.error.message).toBe('string');
    expect(typeof json.error.code).toBe('string');
  });

  it('answers an unsupported content type with a 4xx error body', async () => {
    const response = await postRaw('/chat/completions', '<messages/>', 'application/xml');
    expect(response.status).toBe(415);
    const json = (await response.json()) as { error: { type: string; code: string } };
    expect(json.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_media_type' });
  });

  it('answers unknown routes and models with a 404 error body', async () => {
    const response = await fetch(`${server.baseUrl}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: 'Invalid URL (GET /v1/nope)', type: 'invalid_request_error', param: null, code: 'unknown_url' },
    });
    await expect(client.models.retrieve('gpt-imaginary')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('startDemoModelServer options', () => {
  it('binds a wildcard host and reports a reachable loopback URL', async () => {
    const wildcard = await startDemoModelServer({ host: '0.0.0.0' });
    try {
      expect(wildcard.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const response = await fetch(`${wildcard.baseUrl}/models`);
      expect(response.status).toBe(200);
    } finally {
      await wildcard.close();
    }
  });
});

/** A sleep the test ends by hand. It ignores its signal, so an early end is the server's own doing. */
function handSleep(): { sleep: Sleep; nextCall(): Promise<{ ms: number; signal: AbortSignal; end(): void }> } {
  type Call = { ms: number; signal: AbortSignal; end(): void };
  const calls: Call[] = [];
  const waiters: Array<(call: Call) => void> = [];
  return {
    sleep: (ms, signal) =>
      new Promise((end) => {
        const call = { ms, signal, end: () => end() };
        const waiter = waiters.shift();
        if (waiter) waiter(call);
        else calls.push(call);
      }),
    nextCall: () => {
      const call = calls.shift();
      return call ? Promise.resolve(call) : new Promise((resolve) => waiters.push(resolve));
    },
  };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

describe('startDemoModelServer #slow', () => {
  const slowPrompt = `${prompt} #slow`;
  const slowBody = {
    model: 'keel-demo',
    messages: [
      { role: 'system' as const, content: 'Keel level: L2.architect' },
      { role: 'user' as const, content: `Request:\n${slowPrompt}` },
    ],
  };
  // Should the server fail to end a delay, these tests fail on this timeout rather than hang for two minutes.
  const HANG_GUARD_MS = 10_000;

  let slow: DemoModelServer | undefined;
  const rawSockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of rawSockets.splice(0)) socket.destroy();
    await slow?.close();
    slow = undefined;
  });

  async function startSlow(options: Parameters<typeof startDemoModelServer>[0]): Promise<OpenAI> {
    slow = await startDemoModelServer(options);
    return new OpenAI({ apiKey: 'not-needed', baseURL: slow.baseUrl, maxRetries: 0 });
  }

  it('answers a #slow request only after the injected sleep of slowMs resolves', async () => {
    const hand = handSleep();
    const slowClient = await startSlow({ slowMs: 1234, sleep: hand.sleep });
    let arrived = false;
    const reply = slowClient.chat.completions.create(slowBody).then((completion) => {
      arrived = true;
      return completion;
    });
    const call = await hand.nextCall();
    expect(call.ms).toBe(1234);
    expect(arrived).toBe(false);
    call.end();
    const completion = await reply;
    expect(completion.choices[0]?.message).toEqual(respond(slowBody).message);
    expect(completion.choices[0]?.message.content).toMatch(/^Task: Write hello\.md /);
  });

  it('delays a streamed #slow reply before its first chunk', async () => {
    const hand = handSleep();
    const slowClient = await startSlow({ slowMs: 50, sleep: hand.sleep });
    let arrived = false;
    const stream = slowClient.chat.completions.create({ ...slowBody, stream: true }).then((chunks) => {
      arrived = true;
      return chunks;
    });
    const call = await hand.nextCall();
    expect(arrived).toBe(false);
    call.end();
    let content = '';
    for await (const chunk of await stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toMatch(/^Task: Write hello\.md /);
  });

  it('waits 3000 ms by default, and not at all without #slow', async () => {
    const hand = handSleep();
    const slowClient = await startSlow({ sleep: hand.sleep });
    const quick = await slowClient.chat.completions.create({
      model: 'keel-demo',
      messages: [{ role: 'user', content: prompt }],
    });
    expect(quick.choices[0]?.message.content).toContain(prompt);
    const reply = slowClient.chat.completions.create(slowBody);
    const call = await hand.nextCall();
    expect(call.ms).toBe(3000);
    call.end();
    await expect(reply).resolves.toMatchObject({ object: 'chat.completion' });
  });

  it(
    'ends the delay when the client aborts, and close() does not wait for it',
    async () => {
      const hand = handSleep();
      await startSlow({ sleep: hand.sleep });
      const abort = new AbortController();
      const request = fetch(`${slow?.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(slowBody),
        signal: abort.signal,
      }).catch((error: unknown) => error);
      const call = await hand.nextCall();
      abort.abort();
      expect(await request).toMatchObject({ name: 'AbortError' });
      // The server saw the disconnect: the sleep's signal aborts although the sleep itself never ends.
      await aborted(call.signal);
      await slow?.close();
      slow = undefined;
    },
    HANG_GUARD_MS,
  );

  it(
    'ends a pending delay with a 503 when the server closes, so close() does not wait for it',
    async () => {
      const hand = handSleep();
      await startSlow({ sleep: hand.sleep });
      const request = fetch(`${slow?.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(slowBody),
      });
      const call = await hand.nextCall();
      await slow?.close();
      slow = undefined;
      expect(call.signal.aborted).toBe(true);
      const response = await request;
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        error: { type: 'server_error', code: 'server_shutting_down' },
      });
    },
    HANG_GUARD_MS,
  );

  // fetch opens such a connection right after an aborted request; Node would hold close() until it times out.
  it(
    'does not wait on close() for a connection that never sent a request',
    async () => {
      await startSlow({});
      const port = Number(new URL(slow?.baseUrl ?? '').port);
      const socket = connect(port, '127.0.0.1');
      rawSockets.push(socket);
      const ended = new Promise((resolve) => socket.once('close', resolve));
      await new Promise((resolve) => socket.once('connect', resolve));
      await slow?.close();
      slow = undefined;
      await ended;
    },
    HANG_GUARD_MS,
  );
});

describe('startDemoModelServer chunkMs (paced streaming)', () => {
  const body = {
    model: 'keel-demo',
    messages: [
      { role: 'system' as const, content: executorSystem },
      { role: 'user' as const, content: prompt },
    ],
    tools: [writeFileTool],
  };

  it('waits chunkMs before each chunk after the first, and the answer is the unpaced one', async () => {
    const waits: number[] = [];
    const sleep: Sleep = (ms) => {
      waits.push(ms);
      return Promise.resolve();
    };
    const paced = await startDemoModelServer({ chunkMs: 40, sleep });
    try {
      const pacedClient = new OpenAI({ apiKey: 'not-needed', baseURL: paced.baseUrl, maxRetries: 0 });
      const streamed = await pacedClient.chat.completions.stream(body).finalChatCompletion();
      const whole = await client.chat.completions.create(body as ChatCompletionCreateParamsNonStreaming);

      expect(streamed.choices[0]!.message.tool_calls).toEqual(whole.choices[0]!.message.tool_calls);
      // One wait between each two of the stream's events (its chunks and the closing [DONE]).
      waits.length = 0;
      const raw = await (
        await fetch(`${paced.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, stream: true }),
        })
      ).text();
      const events = raw.split('\n\n').filter((frame) => frame.startsWith('data:')).length;
      expect(events).toBeGreaterThan(3);
      expect(waits.length).toBe(events - 1);
      expect(waits.every((ms) => ms === 40)).toBe(true);
    } finally {
      await paced.close();
    }
  });

  it('stops a paced stream when the server closes, without waiting out its pauses', async () => {
    let paused!: () => void;
    const pausedOnce = new Promise<void>((resolve) => (paused = resolve));
    // A pause that lasts until its signal aborts: only the server's close can end it.
    const sleep: Sleep = (_ms, signal) =>
      new Promise((resolve) => {
        paused();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    const paced = await startDemoModelServer({ chunkMs: 60_000, sleep });
    const response = await fetch(`${paced.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
    });
    const text = response.text().catch(() => '');
    await pausedOnce;

    await paced.close();

    expect(await text).not.toContain('[DONE]');
  });
});

import type { ChatMessage, ToolDefinition } from '../chat-types';
import { geminiErrors, geminiReplies, startFakeGemini } from '../../test/fakes/fake-gemini';
import type { FakeGemini } from '../../test/fakes/fake-gemini';
import { shareUndiciDispatcher } from '../../test/fakes/jest-undici';
import { ProviderCallError } from './types';
import type { AdapterRequest } from './types';
import { vendorBAdapter } from './vendor-b';

const readFileTool: ToolDefinition = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Reads a file from the job workspace.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
  },
};

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are the executor.' },
  { role: 'user', content: 'Compare README.md and CHANGELOG.md' },
];

const MODEL = 'gemini-2.5-flash';

let fake: FakeGemini;

beforeAll(() => {
  shareUndiciDispatcher();
});

beforeEach(async () => {
  fake = await startFakeGemini();
});

afterEach(async () => {
  await fake.close();
});

function requestTo(baseUrl: string, overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    providerName: 'google',
    provider: { wire: 'vendor_b', base_url: baseUrl, auth: { env: 'GEMINI_API_KEY' } },
    model: {
      provider: 'google',
      model: MODEL,
      wire: 'vendor_b',
      features: ['tool_use', 'reasoning'],
      cost_tier: 'cheap',
      context_tokens: 1_048_576,
      max_output_tokens: 65_536,
    },
    apiKey: 'AIza-test-key',
    messages: conversation,
    ...overrides,
  };
}

const call = (overrides: Partial<AdapterRequest> = {}) => vendorBAdapter.call(requestTo(fake.baseUrl, overrides));

describe('vendor_b (Gemini generateContent) adapter', () => {
  it('sends system messages as systemInstruction and user turns as contents, and returns the text', async () => {
    fake.enqueue(
      geminiReplies.parts([{ text: 'Both describe ' }, { text: 'Keel.' }], {
        modelVersion: 'gemini-2.5-flash-preview-09-2025',
        usage: { promptTokenCount: 22, candidatesTokenCount: 5 },
      }),
    );

    const reply = await call();

    expect(reply).toEqual({
      model: 'gemini-2.5-flash-preview-09-2025',
      content: 'Both describe Keel.',
      toolCalls: [],
      usage: { inputTokens: 22, outputTokens: 5, reasoningTokens: 0, cachedInputTokens: 0 },
    });
    const received = fake.requests[0];
    expect(received?.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(received?.headers['x-goog-api-key']).toBe('AIza-test-key');
    expect(received?.body.systemInstruction?.parts).toEqual([{ text: 'You are the executor.' }]);
    expect(received?.body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Compare README.md and CHANGELOG.md' }] },
    ]);
  });

  it('round-trips tool calls: functionCall parts with stable ids, functionResponse parts named after their call', async () => {
    const calls = geminiReplies.parts([
      { text: 'Reading both.' },
      { functionCall: { name: 'read_file', args: { path: 'README.md' } } },
      { functionCall: { name: 'read_file', args: { path: 'CHANGELOG.md' } } },
    ]);
    fake.enqueue(calls, calls, geminiReplies.text('They agree.'));

    const first = await call({ tools: [readFileTool] });
    const replayed = await call({ tools: [readFileTool] });

    expect(first.content).toBe('Reading both.');
    expect(first.toolCalls.map((c) => c.function)).toEqual([
      { name: 'read_file', arguments: '{"path":"README.md"}' },
      { name: 'read_file', arguments: '{"path":"CHANGELOG.md"}' },
    ]);
    const [readme, changelog] = first.toolCalls;
    expect(readme?.id).toMatch(/^call_[0-9a-f]+$/);
    expect(readme?.id).not.toBe(changelog?.id);
    expect(replayed.toolCalls).toEqual(first.toolCalls);
    expect(fake.requests[0]?.body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'read_file',
            description: 'Reads a file from the job workspace.',
            parametersJsonSchema: readFileTool.function.parameters,
          },
        ],
      },
    ]);

    const second = await call({
      tools: [readFileTool],
      messages: [
        ...conversation,
        { role: 'assistant', content: first.content, tool_calls: first.toolCalls },
        { role: 'tool', tool_call_id: readme?.id, content: '# Keel' },
        { role: 'tool', tool_call_id: changelog?.id, content: '## 0.1.0' },
      ],
    });

    expect(second.content).toBe('They agree.');
    expect(fake.requests[2]?.body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Compare README.md and CHANGELOG.md' }] },
      {
        role: 'model',
        parts: [
          { text: 'Reading both.' },
          { functionCall: { name: 'read_file', args: { path: 'README.md' } } },
          { functionCall: { name: 'read_file', args: { path: 'CHANGELOG.md' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'read_file', response: { output: '# Keel' } } },
          { functionResponse: { name: 'read_file', response: { output: '## 0.1.0' } } },
        ],
      },
    ]);
  });

  it('refuses, without a request, a tool result that answers no earlier call', async () => {
    const failure = call({
      messages: [...conversation, { role: 'tool', tool_call_id: 'call_unknown', content: 'orphan' }],
    });

    await expect(failure).rejects.toMatchObject({ name: 'ProviderCallError', kind: 'bad_request' });
    expect(fake.requests).toHaveLength(0);
  });

  it('surfaces thoughtsTokenCount as reasoning, counted in the output, and leaves thought parts out', async () => {
    fake.enqueue(
      geminiReplies.parts([{ text: 'Comparing the two files…', thought: true }, { text: 'Both describe Keel.' }], {
        usage: { promptTokenCount: 22, candidatesTokenCount: 5, thoughtsTokenCount: 611 },
      }),
    );

    const reply = await call();

    expect(reply.content).toBe('Both describe Keel.');
    expect(reply.usage).toEqual({ inputTokens: 22, outputTokens: 616, reasoningTokens: 611, cachedInputTokens: 0 });
    expect(reply.reasoning).toBe('Comparing the two files…');
  });

  it('merges the effort fragment into the request body', async () => {
    fake.enqueue(geminiReplies.text('Done.'));

    await call({ effortFragment: { generationConfig: { thinkingConfig: { thinkingBudget: 8_192 } } } });

    expect(fake.requests[0]?.body.generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 8_192 });
  });

  describe('failure classification', () => {
    it('Gemini RESOURCE_EXHAUSTED with a zero free-tier limit is unfunded', async () => {
      fake.enqueue(geminiReplies.error(429, geminiErrors.zeroFreeTierLimit('gemini-2.5-pro')));

      const failure = call();

      await expect(failure).rejects.toBeInstanceOf(ProviderCallError);
      await expect(failure).rejects.toMatchObject({ kind: 'unfunded', status: 429 });
    });

    it('Gemini RESOURCE_EXHAUSTED with a quotaValue of 0 is unfunded', async () => {
      fake.enqueue(geminiReplies.error(429, geminiErrors.zeroQuotaValue('gemini-2.5-pro')));

      await expect(call()).rejects.toMatchObject({ kind: 'unfunded', status: 429 });
    });

    it('Gemini FAILED_PRECONDITION asking to enable billing is unfunded, not a bad request', async () => {
      fake.enqueue(geminiReplies.error(400, geminiErrors.freeTierUnavailable()));

      await expect(call()).rejects.toMatchObject({ kind: 'unfunded', status: 400 });
    });

    it('a plain Gemini 429 is a rate limit that honours the RetryInfo delay, requested once', async () => {
      fake.enqueue(geminiReplies.error(429, geminiErrors.rateLimited(MODEL, '12s')));

      await expect(call()).rejects.toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 12_000 });
      expect(fake.requests).toHaveLength(1);
    });

    it('a bad key on HTTP 400 (API_KEY_INVALID) marks the provider dead (auth)', async () => {
      fake.enqueue(geminiReplies.error(400, geminiErrors.apiKeyInvalid()));

      await expect(call()).rejects.toMatchObject({ kind: 'auth', status: 400 });
    });

    it('401 and 403 mark the provider dead (auth)', async () => {
      fake.enqueue(
        geminiReplies.error(401, geminiErrors.unauthenticated()),
        geminiReplies.error(403, geminiErrors.permissionDenied()),
      );

      await expect(call()).rejects.toMatchObject({ kind: 'auth', status: 401 });
      await expect(call()).rejects.toMatchObject({ kind: 'auth', status: 403 });
    });

    it('an ordinary 400 and a 404 are bad requests another model may still take', async () => {
      fake.enqueue(
        geminiReplies.error(
          400,
          geminiErrors.invalidArgument('* GenerateContentRequest.contents: contents is not specified'),
        ),
        geminiReplies.error(404, geminiErrors.modelNotFound(MODEL)),
      );

      await expect(call()).rejects.toMatchObject({ kind: 'bad_request', status: 400 });
      await expect(call()).rejects.toMatchObject({ kind: 'bad_request', status: 404 });
    });

    it('a 500 and a 503 are unavailable, each requested once (the client does not retry)', async () => {
      fake.enqueue(
        geminiReplies.error(500, geminiErrors.internal()),
        geminiReplies.error(503, geminiErrors.overloaded()),
      );

      await expect(call()).rejects.toMatchObject({ kind: 'unavailable', status: 500 });
      expect(fake.requests).toHaveLength(1);
      await expect(call()).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
      expect(fake.requests).toHaveLength(2);
    });

    it('a refused connection is unavailable', async () => {
      const gone = await startFakeGemini();
      await gone.close();

      await expect(vendorBAdapter.call(requestTo(gone.baseUrl))).rejects.toMatchObject({
        name: 'ProviderCallError',
        kind: 'unavailable',
      });
    });

    it('an aborted signal rejects with an abort error that is not a ProviderCallError', async () => {
      fake.enqueue({ ...geminiReplies.text('Too late.'), delayMs: 10_000 });
      const controller = new AbortController();

      const pending = call({ signal: controller.signal }).catch((err: unknown) => err);
      await fake.received(1);
      controller.abort();
      const failure = await pending;

      expect(failure).not.toBeInstanceOf(ProviderCallError);
      // Under Jest, fetch's AbortError comes from another realm and the client wraps it (its instanceof Error
      // check fails); in production the AbortError itself comes through.
      const abort = (failure as Error).name === 'AbortError' ? failure : (failure as Error).cause;
      expect(abort).toMatchObject({ name: 'AbortError' });
    });
  });
});

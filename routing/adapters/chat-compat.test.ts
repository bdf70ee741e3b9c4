import OpenAI from 'openai';
import type { ChatMessage, ToolDefinition } from '../chat-types';
import { openAIErrors, openAIReplies, openRouterErrors, startFakeOpenAI } from '../../test/fakes/fake-openai';
import type { FakeOpenAI } from '../../test/fakes/fake-openai';
import { chatCompatAdapter } from './chat-compat';
import { ProviderCallError } from './types';
import type { AdapterRequest } from './types';

const readFileTool: ToolDefinition = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Reads a file from the job workspace.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are the executor.' },
  { role: 'user', content: 'Summarise README.md' },
];

let fake: FakeOpenAI;

beforeEach(async () => {
  fake = await startFakeOpenAI();
});

afterEach(async () => {
  await fake.close();
});

function requestTo(baseUrl: string, overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    providerName: 'openai',
    provider: { wire: 'chat_compat', base_url: baseUrl, auth: { env: 'OPENAI_API_KEY' } },
    model: {
      provider: 'openai',
      model: 'gpt-4.1',
      wire: 'chat_compat',
      features: ['tool_use', 'reasoning'],
      cost_tier: 'mid',
      context_tokens: 1_047_576,
      max_output_tokens: 32_768,
    },
    apiKey: 'sk-test-key',
    messages: conversation,
    ...overrides,
  };
}

const call = (overrides: Partial<AdapterRequest> = {}) => chatCompatAdapter.call(requestTo(fake.baseUrl, overrides));

describe('chat_compat adapter', () => {
  it('sends Keel messages and tools as they are and returns the text, model and usage', async () => {
    fake.enqueue(openAIReplies.text('README.md describes Keel.', { usage: { promptTokens: 31, completionTokens: 9 } }));

    const reply = await call({ tools: [readFileTool] });

    expect(reply).toEqual({
      model: 'gpt-4.1-2025-04-14',
      content: 'README.md describes Keel.',
      toolCalls: [],
      usage: { inputTokens: 31, outputTokens: 9, reasoningTokens: 0, cachedInputTokens: 0 },
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body).toMatchObject({ model: 'gpt-4.1', messages: conversation, tools: [readFileTool] });
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-test-key');
  });

  it('round-trips a tool call with the vendor ids', async () => {
    fake.enqueue(
      openAIReplies.toolCalls([{ id: 'call_Zx81', name: 'read_file', arguments: '{"path":"README.md"}' }]),
      openAIReplies.text('It describes Keel.'),
    );

    const first = await call({ tools: [readFileTool] });
    expect(first.content).toBeNull();
    expect(first.toolCalls).toEqual([
      { id: 'call_Zx81', type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } },
    ]);

    const history: ChatMessage[] = [
      ...conversation,
      { role: 'assistant', content: null, tool_calls: first.toolCalls },
      { role: 'tool', tool_call_id: 'call_Zx81', content: '# Keel\nA job platform.' },
    ];
    const second = await call({ messages: history, tools: [readFileTool] });

    expect(second.content).toBe('It describes Keel.');
    expect(fake.requests[1]?.body.messages).toEqual(history);
  });

  it('surfaces reasoning tokens from completion_tokens_details', async () => {
    fake.enqueue(
      openAIReplies.text('Done.', {
        model: 'o4-mini-2025-04-16',
        usage: { promptTokens: 50, completionTokens: 900, reasoningTokens: 832 },
      }),
    );

    const reply = await call();

    expect(reply.usage).toEqual({ inputTokens: 50, outputTokens: 900, reasoningTokens: 832, cachedInputTokens: 0 });
  });

  it('returns the reasoning summary that compatible servers send as reasoning_content', async () => {
    fake.enqueue({
      status: 200,
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'deepseek-reasoner',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Done.', reasoning_content: 'First list the files, then compare.' },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
      },
    });

    const reply = await call();

    expect(reply.reasoning).toBe('First list the files, then compare.');
    expect(reply.content).toBe('Done.');
  });

  it.each([
    [0.25, { reportedCostUsd: 0.25 }],
    [0, { reportedCostUsd: 0 }],
    [-1, {}],
    ['0.25', {}],
  ])('reads a reported usage.cost of %p (OpenRouter, the demo model) as %p', async (cost, expected) => {
    fake.enqueue({
      status: 200,
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'keel-demo',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30, cost },
      },
    });

    const reply = await call();

    expect({ reportedCostUsd: reply.reportedCostUsd }).toEqual(expected);
  });

  it('merges the effort fragment into the request body', async () => {
    fake.enqueue(openAIReplies.text('Done.'));

    await call({ effortFragment: { reasoning_effort: 'high' } });

    expect(fake.requests[0]?.body.reasoning_effort).toBe('high');
  });

  it('sends a placeholder key to a provider without auth (a local server)', async () => {
    fake.enqueue(openAIReplies.text('Hi.'));

    await call({ apiKey: undefined });

    expect(fake.requests[0]?.headers.authorization).toBe('Bearer none');
  });

  describe('failure classification', () => {
    it('an OpenAI 429 insufficient_quota body is ProviderUnfunded, not a rate limit', async () => {
      fake.enqueue(openAIReplies.error(429, openAIErrors.insufficientQuota()));

      const failure = call();

      await expect(failure).rejects.toBeInstanceOf(ProviderCallError);
      await expect(failure).rejects.toMatchObject({ kind: 'unfunded', status: 429 });
    });

    it('OpenRouter 402 is unfunded', async () => {
      fake.enqueue(openAIReplies.error(402, openRouterErrors.insufficientCredits()));

      await expect(call({ providerName: 'openrouter' })).rejects.toMatchObject({ kind: 'unfunded', status: 402 });
    });

    it('401 and 403 mark the provider dead (auth)', async () => {
      fake.enqueue(
        openAIReplies.error(401, openAIErrors.invalidApiKey()),
        openAIReplies.error(403, openAIErrors.unsupportedRegion()),
      );

      await expect(call()).rejects.toMatchObject({ kind: 'auth', status: 401 });
      await expect(call()).rejects.toMatchObject({ kind: 'auth', status: 403 });
    });

    it('a plain 429 honours Retry-After in seconds and is requested once', async () => {
      fake.enqueue(openAIReplies.error(429, openAIErrors.rateLimited(), { 'retry-after': '20' }));

      await expect(call()).rejects.toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 20_000 });
      expect(fake.requests).toHaveLength(1);
    });

    it('a plain 429 honours Retry-After as an HTTP date', async () => {
      const at = new Date(Date.now() + 30_000).toUTCString();
      fake.enqueue(openAIReplies.error(429, openAIErrors.rateLimited(), { 'retry-after': at }));

      const failure = await call().catch((err: unknown) => err);

      expect(failure).toMatchObject({ kind: 'rate_limited' });
      expect((failure as ProviderCallError).retryAfterMs).toBeGreaterThan(27_000);
      expect((failure as ProviderCallError).retryAfterMs).toBeLessThanOrEqual(30_000);
    });

    it('400, 404 and 422 are bad requests another model may still take', async () => {
      fake.enqueue(
        openAIReplies.error(400, {
          error: {
            message: "Invalid type for 'messages[1].content': expected a string.",
            type: 'invalid_request_error',
            param: 'messages[1].content',
            code: 'invalid_type',
          },
        }),
        openAIReplies.error(404, openAIErrors.modelNotFound('gpt-4.1')),
        openAIReplies.error(422, { detail: [{ msg: 'field required', loc: ['body', 'messages'] }] }),
      );

      await expect(call()).rejects.toMatchObject({ kind: 'bad_request', status: 400 });
      await expect(call()).rejects.toMatchObject({ kind: 'bad_request', status: 404 });
      await expect(call()).rejects.toMatchObject({ kind: 'bad_request', status: 422 });
    });

    it('a 500 is unavailable and requested once (the client does not retry)', async () => {
      fake.enqueue(openAIReplies.error(500, openAIErrors.serverError()));

      await expect(call()).rejects.toMatchObject({ kind: 'unavailable', status: 500 });
      expect(fake.requests).toHaveLength(1);
    });

    it('a refused connection is unavailable', async () => {
      const gone = await startFakeOpenAI();
      await gone.close();

      const failure = chatCompatAdapter.call(requestTo(gone.baseUrl));

      await expect(failure).rejects.toBeInstanceOf(ProviderCallError);
      await expect(failure).rejects.toMatchObject({ kind: 'unavailable', status: undefined });
    });

    it('an aborted signal rejects with an abort error that is not a ProviderCallError', async () => {
      fake.enqueue({ ...openAIReplies.text('Too late.'), delayMs: 10_000 });
      const controller = new AbortController();

      const pending = call({ signal: controller.signal }).catch((err: unknown) => err);
      await fake.received(1);
      controller.abort();
      const failure = await pending;

      expect(failure).toBeInstanceOf(OpenAI.APIUserAbortError);
      expect(failure).not.toBeInstanceOf(ProviderCallError);
    });
  });
});

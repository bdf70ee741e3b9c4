import Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, ToolDefinition } from '../chat-types';
import { anthropicErrors, anthropicReplies, startFakeAnthropic } from '../../test/fakes/fake-anthropic';
import type { FakeAnthropic } from '../../test/fakes/fake-anthropic';
import { PromptCache } from '../../bench/prompt-cache';
import { ProviderCallError } from './types';
import type { AdapterRequest } from './types';
import { vendorAAdapter } from './vendor-a';

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
  { role: 'user', content: 'Compare README.md and CHANGELOG.md' },
];

let fake: FakeAnthropic;

beforeEach(async () => {
  fake = await startFakeAnthropic();
});

afterEach(async () => {
  await fake.close();
});

function requestTo(baseUrl: string, overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    providerName: 'anthropic',
    provider: { wire: 'vendor_a', base_url: baseUrl, auth: { env: 'ANTHROPIC_API_KEY' } },
    model: {
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      wire: 'vendor_a',
      features: ['tool_use', 'reasoning'],
      cost_tier: 'frontier',
      context_tokens: 200_000,
      max_output_tokens: 64_000,
    },
    apiKey: 'sk-ant-test',
    messages: conversation,
    ...overrides,
  };
}

const call = (overrides: Partial<AdapterRequest> = {}) => vendorAAdapter.call(requestTo(fake.baseUrl, overrides));

describe('vendor_a (Anthropic Messages) adapter', () => {
  it('puts system messages in `system`, sets max_tokens from the catalog row and returns the text', async () => {
    fake.enqueue(
      anthropicReplies.blocks(
        [
          { type: 'text', text: 'Both describe ' },
          { type: 'text', text: 'Keel.' },
        ],
        // The vendor answers an alias with the dated id of the model that ran.
        { model: 'claude-haiku-4-5-20251001', usage: { inputTokens: 40, outputTokens: 6 } },
      ),
    );
    const haiku = requestTo(fake.baseUrl).model;

    const reply = await call({ model: { ...haiku, model: 'claude-haiku-4-5', max_output_tokens: 32_000 } });

    expect(reply).toEqual({
      model: 'claude-haiku-4-5-20251001',
      content: 'Both describe Keel.',
      toolCalls: [],
      usage: { inputTokens: 40, outputTokens: 6, reasoningTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0 },
    });
    expect(fake.requests[0]?.body).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 32_000,
      // Prompt caching: the system block and the end of the conversation are cache breakpoints.
      system: [{ type: 'text', text: 'You are the executor.', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'Compare README.md and CHANGELOG.md', cache_control: { type: 'ephemeral' } }],
        },
      ],
    });
    const headers = fake.requests[0]?.headers;
    expect(String(headers?.['x-api-key'] ?? headers?.authorization)).toContain('sk-ant-test');
  });

  it('round-trips tool calls: tool_use blocks out, tool_result blocks merged into one user turn', async () => {
    fake.enqueue(
      anthropicReplies.blocks([
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'README.md' } },
        { type: 'tool_use', id: 'toolu_01B', name: 'read_file', input: { path: 'CHANGELOG.md' } },
      ]),
      anthropicReplies.text('They agree.'),
    );

    const first = await call({ tools: [readFileTool] });
    expect(first.content).toBe('Reading both.');
    expect(first.toolCalls).toEqual([
      { id: 'toolu_01A', type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } },
      { id: 'toolu_01B', type: 'function', function: { name: 'read_file', arguments: '{"path":"CHANGELOG.md"}' } },
    ]);
    expect(fake.requests[0]?.body.tools).toEqual([
      {
        name: 'read_file',
        description: 'Reads a file from the job workspace.',
        input_schema: readFileTool.function.parameters,
        cache_control: { type: 'ephemeral' },
      },
    ]);

    const second = await call({
      tools: [readFileTool],
      messages: [
        ...conversation,
        { role: 'assistant', content: first.content, tool_calls: first.toolCalls },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '# Keel' },
        { role: 'tool', tool_call_id: 'toolu_01B', content: '## 0.1.0' },
      ],
    });

    expect(second.content).toBe('They agree.');
    expect(fake.requests[1]?.body.system).toEqual([
      { type: 'text', text: 'You are the executor.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(fake.requests[1]?.body.messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Compare README.md and CHANGELOG.md', cache_control: { type: 'ephemeral' } }],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'README.md' } },
          { type: 'tool_use', id: 'toolu_01B', name: 'read_file', input: { path: 'CHANGELOG.md' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: '# Keel' },
          { type: 'tool_result', tool_use_id: 'toolu_01B', content: '## 0.1.0', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('marks the stable prefix for caching and reads the cache on the next round: cache reads and writes are input', async () => {
    const cache = new PromptCache(0);
    const brief = `Compare README.md and CHANGELOG.md. ${'Both files describe the release. '.repeat(40)}`;
    fake.enqueue(
      anthropicReplies.counted(
        cache,
        anthropicReplies.blocks([
          { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'README.md' } },
        ]),
      ),
      anthropicReplies.counted(cache, anthropicReplies.text('They agree.')),
    );
    const opening: ChatMessage[] = [conversation[0]!, { role: 'user', content: brief }];
    const first = await call({ tools: [readFileTool], messages: opening });
    const second = await call({
      tools: [readFileTool],
      messages: [
        ...opening,
        { role: 'assistant', content: null, tool_calls: first.toolCalls },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '# Keel' },
      ],
    });

    // Four breakpoints at most: the last tool, the system block, the brief, the newest message.
    const marked = JSON.stringify(fake.requests[1]?.body).split('"cache_control":{"type":"ephemeral"}').length - 1;
    expect(marked).toBe(4);
    // The first call wrote everything up to its last breakpoint (the brief); the second read it back.
    expect(first.usage.cachedInputTokens).toBe(0);
    expect(first.usage.cacheWriteTokens).toBe(first.usage.inputTokens);
    expect(second.usage.cachedInputTokens).toBe(first.usage.cacheWriteTokens);
    expect(second.usage.inputTokens).toBeGreaterThan(second.usage.cachedInputTokens!);
  });

  it('leaves thinking out of the content and reports the billed output beyond the visible text as reasoning', async () => {
    fake.enqueue(
      anthropicReplies.blocks(
        [
          { type: 'thinking', thinking: 'The user wants a comparison; both files mention Keel.' },
          { type: 'text', text: 'Both describe Keel.' },
        ],
        { usage: { inputTokens: 40, outputTokens: 1_200 } },
      ),
    );

    const reply = await call();

    expect(reply.content).toBe('Both describe Keel.');
    // 1,200 billed output tokens, of which "Both describe Keel." (19 characters) is about 5.
    expect(reply.usage).toEqual({
      inputTokens: 40,
      outputTokens: 1_200,
      reasoningTokens: 1_195,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
    });
    // The thinking summary comes back separately, for the level's `thinking` event.
    expect(reply.reasoning).toBe('The user wants a comparison; both files mention Keel.');
  });

  it('reports no reasoning tokens when no thinking block came back', async () => {
    fake.enqueue(anthropicReplies.text('Short answer.', { usage: { inputTokens: 10, outputTokens: 300 } }));

    const reply = await call();

    expect(reply.usage.reasoningTokens).toBe(0);
  });

  it('merges the effort fragment into the request body', async () => {
    fake.enqueue(anthropicReplies.text('Done.'));

    await call({ effortFragment: { thinking: { type: 'enabled', budget_tokens: 16_000 } } });

    expect(fake.requests[0]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 16_000 });
  });

  describe('failure classification', () => {
    it("Anthropic 'credit balance is too low' on HTTP 400 is unfunded", async () => {
      fake.enqueue(anthropicReplies.error(400, anthropicErrors.creditBalanceTooLow()));

      const failure = call();

      await expect(failure).rejects.toBeInstanceOf(ProviderCallError);
      await expect(failure).rejects.toMatchObject({ kind: 'unfunded', status: 400 });
    });

    it('an Anthropic spend-limit 429 (error_code) is unfunded, not a rate limit', async () => {
      fake.enqueue(
        anthropicReplies.error(429, {
          type: 'error',
          error: {
            type: 'rate_limit_error',
            message: 'Your organization has reached its monthly usage limit.',
            details: { error_code: 'enforced_spend_limit_reached' },
          },
          request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy',
        }),
      );

      await expect(call()).rejects.toMatchObject({ kind: 'unfunded', status: 429 });
    });

    it('401 and 403 mark the provider dead (auth)', async () => {
      fake.enqueue(
        anthropicReplies.error(401, anthropicErrors.invalidApiKey()),
        anthropicReplies.error(403, anthropicErrors.permissionDenied()),
      );

      await expect(call()).rejects.toMatchObject({ kind: 'auth', status: 401 });
      await expect(call()).rejects.toMatchObject({ kind: 'auth', status: 403 });
    });

    it('a plain 429 honours Retry-After and is requested once', async () => {
      fake.enqueue(anthropicReplies.error(429, anthropicErrors.rateLimited(), { 'retry-after': '17' }));

      await expect(call()).rejects.toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 17_000 });
      expect(fake.requests).toHaveLength(1);
    });

    it('an ordinary 400 and a 404 are bad requests another model may still take', async () => {
      fake.enqueue(
        anthropicReplies.error(400, anthropicErrors.invalidRequest('messages: text content blocks must be non-empty')),
        anthropicReplies.error(404, anthropicErrors.modelNotFound('claude-sonnet-4-6')),
      );

      await expect(call()).rejects.toMatchObject({ kind: 'bad_request', status: 400 });
      await expect(call()).rejects.toMatchObject({ kind: 'bad_request', status: 404 });
    });

    it('a 500 and a 529 (overloaded) are unavailable, each requested once (the client does not retry)', async () => {
      fake.enqueue(
        anthropicReplies.error(500, anthropicErrors.apiError()),
        anthropicReplies.error(529, anthropicErrors.overloaded()),
      );

      await expect(call()).rejects.toMatchObject({ kind: 'unavailable', status: 500 });
      expect(fake.requests).toHaveLength(1);
      await expect(call()).rejects.toMatchObject({ kind: 'unavailable', status: 529 });
      expect(fake.requests).toHaveLength(2);
    });

    it('a refused connection is unavailable', async () => {
      const gone = await startFakeAnthropic();
      await gone.close();

      await expect(vendorAAdapter.call(requestTo(gone.baseUrl))).rejects.toMatchObject({
        name: 'ProviderCallError',
        kind: 'unavailable',
      });
    });

    it('an aborted signal rejects with an abort error that is not a ProviderCallError', async () => {
      fake.enqueue({ ...anthropicReplies.text('Too late.'), delayMs: 10_000 });
      const controller = new AbortController();

      const pending = call({ signal: controller.signal }).catch((err: unknown) => err);
      await fake.received(1);
      controller.abort();
      const failure = await pending;

      expect(failure).toBeInstanceOf(Anthropic.APIUserAbortError);
      expect(failure).not.toBeInstanceOf(ProviderCallError);
    });
  });
});

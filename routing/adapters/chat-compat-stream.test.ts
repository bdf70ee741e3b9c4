import { openAIErrors, openAIReplies, startFakeOpenAI } from '../../test/fakes/fake-openai';
import type { FakeOpenAI } from '../../test/fakes/fake-openai';
import { chatCompatAdapter } from './chat-compat';
import { ProviderCallError } from './types';
import type { AdapterRequest, OutputPiece } from './types';

/** The chat_compat wire streamed: the fake speaks OpenAI's SSE framing, chunk by chunk, usage in the last chunk. */
let fake: FakeOpenAI;

beforeEach(async () => {
  fake = await startFakeOpenAI();
});

afterEach(async () => {
  await fake.close();
});

function streamed(pieces: OutputPiece[], overrides: Partial<AdapterRequest> = {}): Promise<unknown> {
  return chatCompatAdapter.call({
    providerName: 'openai',
    provider: { wire: 'chat_compat', base_url: fake.baseUrl, auth: { env: 'OPENAI_API_KEY' } },
    model: {
      provider: 'openai',
      model: 'gpt-4.1',
      wire: 'chat_compat',
      features: ['tool_use'],
      cost_tier: 'mid',
      context_tokens: 1_047_576,
      max_output_tokens: 32_768,
    },
    apiKey: 'sk-test-key',
    messages: [{ role: 'user', content: 'Write notes.md' }],
    onPiece: (piece) => pieces.push(piece),
    ...overrides,
  });
}

describe('chat_compat streamed', () => {
  it('asks for a stream with usage, hands each piece on as it comes and answers the whole reply', async () => {
    fake.enqueue(
      openAIReplies.stream({
        deltas: [
          { role: 'assistant', content: '' },
          { reasoning_content: 'The user wants ' },
          { reasoning_content: 'notes.' },
          { content: 'Writing ' },
          { content: 'it now.' },
          {
            tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '' } }],
          },
          { tool_calls: [{ index: 0, function: { arguments: '{"path":"no' } }] },
          { tool_calls: [{ index: 0, function: { arguments: 'tes.md","content":"# Notes"}' } }] },
        ],
        finishReason: 'tool_calls',
        usage: { promptTokens: 40, completionTokens: 25, reasoningTokens: 6 },
      }),
    );
    const pieces: OutputPiece[] = [];

    const reply = await streamed(pieces);

    expect(fake.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(pieces).toEqual([
      { kind: 'reasoning', text: 'The user wants ' },
      { kind: 'reasoning', text: 'notes.' },
      { kind: 'text', text: 'Writing ' },
      { kind: 'text', text: 'it now.' },
      { kind: 'tool_arguments', text: '', toolCallIndex: 0, toolName: 'write_file' },
      { kind: 'tool_arguments', text: '{"path":"no', toolCallIndex: 0 },
      { kind: 'tool_arguments', text: 'tes.md","content":"# Notes"}', toolCallIndex: 0 },
    ]);
    expect(reply).toEqual({
      model: 'gpt-4.1-2025-04-14',
      content: 'Writing it now.',
      toolCalls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'write_file', arguments: '{"path":"notes.md","content":"# Notes"}' },
        },
      ],
      usage: { inputTokens: 40, outputTokens: 25, reasoningTokens: 6, cachedInputTokens: 0 },
      reasoning: 'The user wants notes.',
    });
  });

  it('reads a whole completion the vendor streams exactly as the same completion unstreamed', async () => {
    const canned = openAIReplies.toolCalls(
      [{ id: 'call_9', name: 'write_file', arguments: JSON.stringify({ path: 'a.md', content: 'x'.repeat(100) }) }],
      { usage: { promptTokens: 9, completionTokens: 4 } },
    );
    fake.enqueue(canned);
    const unstreamed = await chatCompatAdapter.call({
      providerName: 'openai',
      provider: { wire: 'chat_compat', base_url: fake.baseUrl },
      model: {
        provider: 'openai',
        model: 'gpt-4.1',
        wire: 'chat_compat',
        features: [],
        cost_tier: 'mid',
        context_tokens: 1000,
        max_output_tokens: 100,
      },
      messages: [{ role: 'user', content: 'go' }],
    });
    fake.enqueue(canned);
    const pieces: OutputPiece[] = [];

    expect(await streamed(pieces)).toEqual(unstreamed);
    expect(pieces.filter((p) => p.kind === 'tool_arguments').length).toBeGreaterThan(2);
  });

  it('fails a 429 sent as an error event after some tokens as rate_limited, having handed on the tokens', async () => {
    fake.enqueue(
      openAIReplies.stream({
        deltas: [{ role: 'assistant', content: '' }, { content: 'Half an ' }],
        then: { error: openAIErrors.rateLimited() },
      }),
    );
    const pieces: OutputPiece[] = [];

    const failure = await streamed(pieces).catch((err: unknown) => err);

    expect(pieces).toEqual([{ kind: 'text', text: 'Half an ' }]);
    expect(failure).toBeInstanceOf(ProviderCallError);
    expect(failure).toMatchObject({ kind: 'rate_limited', status: 429 });
  });

  it('fails a server error after some tokens as unavailable', async () => {
    fake.enqueue(openAIReplies.stream({ deltas: [{ content: 'Half' }], then: { error: openAIErrors.serverError() } }));

    await expect(streamed([])).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('fails a stream that goes silent as unavailable once the stall limit passes, and hangs up on the vendor', async () => {
    fake.enqueue(openAIReplies.stream({ deltas: [{ content: 'Half' }], then: 'stall' }));
    const pieces: OutputPiece[] = [];

    const failure = await streamed(pieces, { stallMs: 300 }).catch((err: unknown) => err);

    expect(pieces).toEqual([{ kind: 'text', text: 'Half' }]);
    expect(failure).toBeInstanceOf(ProviderCallError);
    expect(failure).toMatchObject({ kind: 'unavailable' });
    expect((failure as Error).message).toContain('stalled');
  });

  it('rethrows the caller’s own cancel mid-stream untouched', async () => {
    fake.enqueue(openAIReplies.stream({ deltas: [{ content: 'Half' }], then: 'stall' }));
    const controller = new AbortController();

    const failure = streamed([], {
      signal: controller.signal,
      onPiece: () => controller.abort(new Error('job cancelled')),
    }).catch((err: unknown) => err);

    expect(await failure).not.toBeInstanceOf(ProviderCallError);
    expect(controller.signal.aborted).toBe(true);
  });
});

import { anthropicErrors, anthropicReplies, startFakeAnthropic } from '../../test/fakes/fake-anthropic';
import type { FakeAnthropic } from '../../test/fakes/fake-anthropic';
import { ProviderCallError } from './types';
import type { AdapterRequest, OutputPiece } from './types';
import { vendorAAdapter } from './vendor-a';

/** The Messages wire streamed: the fake frames Anthropic's events (`event:` + `data:`), usage at start and end. */
let fake: FakeAnthropic;

beforeEach(async () => {
  fake = await startFakeAnthropic();
});

afterEach(async () => {
  await fake.close();
});

function request(overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    providerName: 'anthropic',
    provider: { wire: 'vendor_a', base_url: fake.baseUrl, auth: { env: 'ANTHROPIC_API_KEY' } },
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
    messages: [
      { role: 'system', content: 'You are the executor.' },
      { role: 'user', content: 'Write notes.md' },
    ],
    ...overrides,
  };
}

const blocks = [
  { type: 'thinking' as const, thinking: 'The person wants a notes file about durable workflows.' },
  { type: 'text' as const, text: 'Writing notes.md now.' },
  {
    type: 'tool_use' as const,
    id: 'toolu_01A',
    name: 'write_file',
    input: { path: 'notes.md', content: '# Durable workflows\n\nThey survive crashes.' },
  },
];

describe('vendor_a streamed', () => {
  it('hands on thinking, text and tool input as they stream and answers what the unstreamed call answers', async () => {
    const canned = anthropicReplies.blocks(blocks, { usage: { inputTokens: 120, outputTokens: 80 } });
    fake.enqueue(canned, canned);
    const unstreamed = await vendorAAdapter.call(request());
    const pieces: OutputPiece[] = [];

    const reply = await vendorAAdapter.call(request({ onPiece: (piece) => pieces.push(piece) }));

    expect(fake.requests[1]!.body).toMatchObject({ stream: true });
    expect(reply).toEqual(unstreamed);
    expect(reply.usage.inputTokens).toBe(120);
    expect(reply.usage.outputTokens).toBe(80);
    const joined = (kind: OutputPiece['kind']) =>
      pieces
        .filter((p) => p.kind === kind)
        .map((p) => p.text)
        .join('');
    expect(joined('reasoning')).toBe(blocks[0]!.thinking);
    expect(joined('text')).toBe(blocks[1]!.text);
    expect(JSON.parse(joined('tool_arguments'))).toEqual(blocks[2]!.input);
    // Tool input arrives in several input_json_delta pieces, the first naming the tool.
    const toolPieces = pieces.filter((p) => p.kind === 'tool_arguments');
    expect(toolPieces.length).toBeGreaterThan(3);
    expect(toolPieces[0]).toEqual({ kind: 'tool_arguments', text: '', toolCallIndex: 0, toolName: 'write_file' });
    expect(pieces.filter((p) => p.kind === 'reasoning').length).toBeGreaterThan(1);
  });

  it('fails a rate_limit_error event after some tokens as rate_limited', async () => {
    fake.enqueue(
      anthropicReplies.brokenStream([{ type: 'text', text: 'Half an answer' }], {
        error: anthropicErrors.rateLimited(),
      }),
    );
    const pieces: OutputPiece[] = [];

    const failure = await vendorAAdapter
      .call(request({ onPiece: (piece) => pieces.push(piece) }))
      .catch((err: unknown) => err);

    expect(pieces.length).toBeGreaterThan(0);
    expect(failure).toBeInstanceOf(ProviderCallError);
    expect(failure).toMatchObject({ kind: 'rate_limited', status: 429 });
  });

  it('fails an overloaded_error event after some tokens as unavailable', async () => {
    fake.enqueue(
      anthropicReplies.brokenStream([{ type: 'text', text: 'Half an answer' }], {
        error: anthropicErrors.overloaded(),
      }),
    );

    await expect(vendorAAdapter.call(request({ onPiece: () => {} }))).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('fails a stream that goes silent as unavailable once the stall limit passes', async () => {
    fake.enqueue(anthropicReplies.brokenStream([{ type: 'text', text: 'Half an answer' }], 'stall'));

    const failure = await vendorAAdapter
      .call(request({ onPiece: () => {}, stallMs: 300 }))
      .catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(ProviderCallError);
    expect(failure).toMatchObject({ kind: 'unavailable' });
    expect((failure as Error).message).toContain('stalled');
  });
});

import { geminiErrors, geminiReplies, startFakeGemini } from '../../test/fakes/fake-gemini';
import type { FakeGemini } from '../../test/fakes/fake-gemini';
import { shareUndiciDispatcher } from '../../test/fakes/jest-undici';
import { ProviderCallError } from './types';
import type { AdapterRequest, OutputPiece } from './types';
import { vendorBAdapter } from './vendor-b';

/** The Gemini wire streamed: the fake answers streamGenerateContent (alt=sse) chunk by chunk, usage in the last. */
let fake: FakeGemini;

beforeAll(() => shareUndiciDispatcher());

beforeEach(async () => {
  fake = await startFakeGemini();
});

afterEach(async () => {
  await fake.close();
});

function request(overrides: Partial<AdapterRequest> = {}): AdapterRequest {
  return {
    providerName: 'google',
    provider: { wire: 'vendor_b', base_url: fake.baseUrl, auth: { env: 'GEMINI_API_KEY' } },
    model: {
      provider: 'google',
      model: 'gemini-2.5-flash',
      wire: 'vendor_b',
      features: ['tool_use', 'reasoning'],
      cost_tier: 'cheap',
      context_tokens: 1_048_576,
      max_output_tokens: 65_536,
    },
    apiKey: 'AIza-test-key',
    messages: [
      { role: 'system', content: 'You are the executor.' },
      { role: 'user', content: 'Write notes.md' },
    ],
    ...overrides,
  };
}

const parts = [
  { text: 'The person wants notes on durable workflows.', thought: true },
  { text: 'Writing notes.md now, as asked.' },
  { functionCall: { name: 'write_file', args: { path: 'notes.md', content: '# Durable workflows' } } },
];

describe('vendor_b streamed', () => {
  it('calls streamGenerateContent, hands on thoughts, text and the call, and answers what generateContent answers', async () => {
    const canned = geminiReplies.parts(parts, {
      usage: { promptTokenCount: 50, candidatesTokenCount: 30, thoughtsTokenCount: 12 },
    });
    fake.enqueue(canned, canned);
    const unstreamed = await vendorBAdapter.call(request());
    const pieces: OutputPiece[] = [];

    const reply = await vendorBAdapter.call(request({ onPiece: (piece) => pieces.push(piece) }));

    expect(fake.requests[1]!.url).toContain(':streamGenerateContent');
    expect(reply).toEqual(unstreamed);
    expect(reply.usage).toEqual({ inputTokens: 50, outputTokens: 42, reasoningTokens: 12, cachedInputTokens: 0 });
    const joined = (kind: OutputPiece['kind']) =>
      pieces
        .filter((p) => p.kind === kind)
        .map((p) => p.text)
        .join('');
    expect(joined('reasoning')).toBe(parts[0]!.text);
    expect(joined('text')).toBe(parts[1]!.text);
    expect(pieces.filter((p) => p.kind === 'text').length).toBeGreaterThan(1);
    expect(pieces.find((p) => p.kind === 'tool_arguments')).toEqual({
      kind: 'tool_arguments',
      text: JSON.stringify(parts[2]!.functionCall!.args),
      toolCallIndex: 0,
      toolName: 'write_file',
    });
  });

  it('fails a 429 error chunk after some tokens as rate_limited', async () => {
    fake.enqueue(
      geminiReplies.brokenStream([{ text: 'Half an answer, then a limit.' }], {
        error: geminiErrors.rateLimited('gemini-2.5-flash'),
      }),
    );
    const pieces: OutputPiece[] = [];

    const failure = await vendorBAdapter
      .call(request({ onPiece: (piece) => pieces.push(piece) }))
      .catch((err: unknown) => err);

    expect(pieces.length).toBeGreaterThan(0);
    expect(failure).toBeInstanceOf(ProviderCallError);
    expect(failure).toMatchObject({ kind: 'rate_limited', status: 429 });
  });

  it('fails a stream that goes silent as unavailable once the stall limit passes', async () => {
    fake.enqueue(geminiReplies.brokenStream([{ text: 'Half an answer, then nothing.' }], 'stall'));

    const failure = await vendorBAdapter
      .call(request({ onPiece: () => {}, stallMs: 300 }))
      .catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(ProviderCallError);
    expect(failure).toMatchObject({ kind: 'unavailable' });
    expect((failure as Error).message).toContain('stalled');
  });
});

import OpenAI from 'openai';
import { classifyHttpFailure, classifyThrown } from './classify';
import { ProviderCallError } from './types';

const context = { wire: 'vendor_b' as const, providerName: 'google', model: 'gemini-2.5-flash' };

describe('classifyThrown', () => {
  it("a client's own timeout is unavailable, not a cancellation", () => {
    const openAITimeout = new OpenAI.APIConnectionTimeoutError();
    const fetchTimeout = new DOMException('This operation was aborted', 'AbortError');

    expect(classifyThrown(openAITimeout, { ...context, wire: 'chat_compat' })).toMatchObject({ kind: 'unavailable' });
    expect(classifyThrown(fetchTimeout, context)).toMatchObject({ kind: 'unavailable' });
  });

  it("anything thrown after the caller's signal aborted is returned as is, never classified", () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException('This operation was aborted', 'AbortError');

    expect(classifyThrown(abort, { ...context, signal: controller.signal })).toBe(abort);
  });

  it('a programming error is returned as is, not walked past as an unavailable provider', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'parts')");

    const result = classifyThrown(bug, context);

    expect(result).toBe(bug);
    expect(result).not.toBeInstanceOf(ProviderCallError);
  });
});

describe('classifyHttpFailure', () => {
  it('a 402 is unfunded on every wire', () => {
    for (const wire of ['chat_compat', 'vendor_a', 'vendor_b'] as const) {
      expect(classifyHttpFailure(wire, { status: 402, body: 'Payment Required' }, 'p/m').kind).toBe('unfunded');
    }
  });

  it('a non-JSON body still classifies by status and keeps the text in the message', () => {
    const failure = classifyHttpFailure(
      'chat_compat',
      { status: 502, body: '<html>Bad Gateway</html>' },
      'local/llama',
    );

    expect(failure).toMatchObject({ kind: 'unavailable', status: 502 });
    expect(failure.message).toContain('Bad Gateway');
  });

  it('Retry-After in the past means retry now, not a negative wait', () => {
    const headers = new Headers({ 'retry-after': new Date(Date.now() - 60_000).toUTCString() });

    const failure = classifyHttpFailure('vendor_a', { status: 429, body: {}, headers }, 'anthropic/claude');

    expect(failure.retryAfterMs).toBe(0);
  });
});

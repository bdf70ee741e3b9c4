import type { ChatMessage, ToolDefinition } from './chat-types';
import { ContextTooSmall, estimatePromptTokens, fitToWindow, inputWindow } from './context-fit';

/** A tiny-context model row: 3,000 tokens, 500 of them for the answer, so the prompt gets 2,500. */
const tiny = { context_tokens: 3_000, max_output_tokens: 500 };
const tools: ToolDefinition[] = [
  {
    type: 'function',
    function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  },
];
const numbered = (from: number, to: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, i) => `${String(from + i).padStart(5)}\tconst line${from + i} = ${from + i};`,
  ).join('\n');

function round(id: string, name: string, args: Record<string, unknown>, result: string): ChatMessage[] {
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    },
    { role: 'tool', tool_call_id: id, content: result },
  ];
}

const opening: ChatMessage[] = [
  { role: 'system', content: 'Keel level: L4.executor' },
  { role: 'user', content: 'Fix the off-by-one in src/a.ts.' },
];

describe('fitToWindow: the prompt never exceeds the model’s window', () => {
  it('leaves a prompt that fits as it is', () => {
    const messages = [...opening, ...round('c1', 'read_file', { path: 'src/a.ts' }, numbered(1, 5))];
    const fitted = fitToWindow(messages, tools, tiny);
    expect(fitted).toMatchObject({ messages, cut: 0, dropped: 0 });
    expect(fitted.estimatedTokens).toBe(estimatePromptTokens(messages, tools));
  });

  it('cuts a large tool result with a note saying where read_file reads on', () => {
    const messages = [
      ...opening,
      ...round('c1', 'read_file', { path: 'src/a.ts' }, `src/a.ts: lines 1-400 of 400\n${numbered(1, 400)}`),
    ];
    const fitted = fitToWindow(messages, tools, tiny);
    expect(fitted.cut).toBe(1);
    expect(fitted.estimatedTokens).toBeLessThanOrEqual(inputWindow(tiny));
    const result = fitted.messages.at(-1)!.content!;
    const lastShown = Number(/(\d+)\tconst[^\n]*\n\n\[cut by Keel/.exec(result)?.[1]);
    expect(result).toContain(`read the rest with read_file {"path": "src/a.ts", "start_line": ${lastShown + 1}}`);
    // The original is not changed: the workflow's history keeps every result whole.
    expect(messages.at(-1)!.content).not.toContain('[cut by Keel');
  });

  it('drops older tool rounds first, oldest first, and keeps the newest round and the opening', () => {
    const body = (n: number) => `result ${n}: ${'x'.repeat(2_400)}`;
    const messages = [
      ...opening,
      ...round('c1', 'search_files', { query: 'one' }, body(1)),
      ...round('c2', 'search_files', { query: 'two' }, body(2)),
      ...round('c3', 'search_files', { query: 'three' }, body(3)),
      ...round('c4', 'search_files', { query: 'four' }, body(4)),
    ];
    expect(estimatePromptTokens(messages, tools)).toBeGreaterThan(inputWindow(tiny));

    const fitted = fitToWindow(messages, tools, tiny);

    expect(fitted.estimatedTokens).toBeLessThanOrEqual(inputWindow(tiny));
    const results = fitted.messages.filter((m) => m.role === 'tool').map((m) => m.content!);
    expect(results[0]).toMatch(
      /^\[dropped by Keel to fit the model's context window: the result of search_files \{"query":"one"\} \(2410 characters\)/,
    );
    expect(results.at(-1)).toBe(body(4));
    expect(fitted.dropped).toBeGreaterThanOrEqual(1);
    expect(results.slice(fitted.dropped).every((r) => !r.startsWith('[dropped'))).toBe(true);
    expect(fitted.messages.slice(0, 2)).toEqual(opening);
    // Every call is still answered: the assistant turns are all there.
    expect(fitted.messages.filter((m) => m.role === 'assistant')).toHaveLength(4);
  });

  it('never exceeds the window, whatever the history (and the same history fits the same way)', () => {
    for (let rounds = 1; rounds <= 12; rounds += 1) {
      const messages = [...opening];
      for (let r = 1; r <= rounds; r += 1)
        messages.push(...round(`c${r}`, 'read_file', { path: `f${r}` }, numbered(1, 30 * r)));
      const fitted = fitToWindow(messages, tools, tiny);
      expect(fitted.estimatedTokens).toBeLessThanOrEqual(inputWindow(tiny));
      expect(estimatePromptTokens(fitted.messages, tools)).toBe(fitted.estimatedTokens);
      expect(fitToWindow(messages, tools, tiny)).toEqual(fitted);
    }
  });

  it('refuses a prompt whose opening alone is over the window: the walk moves on to a larger model', () => {
    const messages: ChatMessage[] = [opening[0]!, { role: 'user', content: 'y'.repeat(9_000) }];
    expect(() => fitToWindow(messages, tools, tiny)).toThrow(ContextTooSmall);
  });
});

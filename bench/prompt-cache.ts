// A stand-in for the Anthropic Messages API's prompt cache, for the fake vendors of tests (test/fakes/fake-anthropic.ts)
// and of `bench:prompt-tokens`: it counts a request's input tokens and splits them as the API's usage does
// (`input_tokens`, `cache_read_input_tokens`, `cache_creation_input_tokens`). Not the API's tokenizer: a token is about
// four characters of each block's JSON. What it keeps to is the API's caching rule: the prefix up to a block marked
// `cache_control` (in the order tools, system, messages) is written to the cache, and a later request whose prefix up
// to one of its own breakpoints is exactly a written one reads that much from it; a prefix under the model's minimum
// (1,024 tokens for most models) is not cached.
import { createHash } from 'node:crypto';

export interface CacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

interface Segment {
  text: string;
  marked: boolean;
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** The request's blocks in cache order, each with whether it carries a breakpoint; the marker itself is not counted. */
function segmentsOf(body: Record<string, unknown>): Segment[] {
  const segment = (block: unknown): Segment => {
    if (typeof block === 'string') return { text: block, marked: false };
    const { cache_control: mark, ...rest } = block as Record<string, unknown>;
    return { text: JSON.stringify(rest), marked: mark !== undefined && mark !== null };
  };
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
  const out: Segment[] = [];
  for (const tool of list(body.tools)) out.push(segment(tool));
  for (const block of list(body.system)) out.push(segment(block));
  for (const message of list(body.messages)) {
    const { role, content } = message as { role: string; content: unknown };
    out.push({ text: role, marked: false });
    for (const block of list(content)) out.push(segment(block));
  }
  return out;
}

export class PromptCache {
  private readonly written = new Set<string>();

  constructor(private readonly minTokens = 1024) {}

  /** The usage of one request, and what it writes to the cache for the next. */
  usage(body: Record<string, unknown>): CacheUsage {
    const hash = createHash('sha256');
    let total = 0;
    let read = 0;
    let lastBreakpoint = 0;
    const fresh: string[] = [];
    for (const segment of segmentsOf(body)) {
      hash.update(segment.text);
      hash.update('\u0000');
      total += tokensOf(segment.text);
      if (!segment.marked || total < this.minTokens) continue;
      const key = hash.copy().digest('hex');
      if (this.written.has(key)) read = total;
      else fresh.push(key);
      lastBreakpoint = total;
    }
    for (const key of fresh) this.written.add(key);
    const creation = Math.max(0, lastBreakpoint - read);
    return {
      input_tokens: total - read - creation,
      cache_read_input_tokens: read,
      cache_creation_input_tokens: creation,
    };
  }
}

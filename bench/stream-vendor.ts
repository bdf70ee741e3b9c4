// The vendor of `bench:streaming` (bench/streaming.ts): a loopback server on the chat completions wire as OpenAI streams
// it (`stream: true`: a role chunk, content chunks, `data: [DONE]`), whose answers wait until the bench releases a
// round, so N calls stream at the same time. It records when it wrote each token of each call, on this process's clock.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A call names itself by this tag anywhere in its request body (the job's prompt, or the direct client's message). */
const TAG = /bench-call ([\w-]+)/;

export interface StreamVendorOptions {
  /** Content chunks per answer: `t0 `, `t1 `, … (one token each). */
  tokens: number;
  /** Pause between one call's chunks (ms): 20 is 50 tokens/s, a frontier model's pace. */
  paceMs: number;
}

export interface StreamVendor {
  /** Ends with `/v1`, as the catalog's chat_compat `base_url` and the `openai` client's `baseURL` do. */
  baseUrl: string;
  /** Calls answered with their headers and role chunk, waiting for `release` (of these tags only, when given). */
  waiting(tags?: Set<string>): number;
  /** Requests whose response is still open (waiting, streaming, held or parked). */
  open(): number;
  /**
   * Streams every waiting call. Their first tokens are spread evenly over one pace interval (call i starts at
   * i/N × paceMs), as independent streams are; then each sends a token every `paceMs`. Resolves once every call has
   * written its last token. The answers are then held open, unfinished, until `reset`.
   */
  release(): Promise<void>;
  /** When (ms, `performance.timeOrigin + performance.now()`) each token of each released call was written, by tag. */
  written: Map<string, number[]>;
  /** Destroys every held answer and parked request, forgets the calls. */
  reset(): void;
  close(): Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

function chunk(delta: Record<string, unknown>): string {
  const body = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: 'bench-stream',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
    usage: null,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

export async function startStreamVendor(options: StreamVendorOptions): Promise<StreamVendor> {
  /** Answers whose tokens are not sent yet, by tag. */
  const waiting = new Map<string, http.ServerResponse>();
  /** Tags measured in this round (released or waiting): a later request with the same tag is parked. */
  const measured = new Set<string>();
  /** Every open response, so `reset` and `close` end them. */
  const open = new Set<http.ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const written = new Map<string, number[]>();

  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (piece: Buffer) => body.push(piece));
    req.on('end', () => {
      open.add(res);
      res.once('close', () => open.delete(res));
      const text = Buffer.concat(body).toString('utf8');
      const tag = TAG.exec(text)?.[1];
      // What follows a measured call (the level's next turn, a retried call) is parked: left unanswered until the
      // round's reset, so nothing after the measured calls competes with them for the machine.
      if (!tag || measured.has(tag) || !text.includes('"stream":true')) return;
      measured.add(tag);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk({ role: 'assistant', content: '' }));
      waiting.set(tag, res);
      // A call that gives up before the release (its client timed out) is not measured; its retry will be.
      res.once('close', () => {
        if (waiting.get(tag) === res) {
          waiting.delete(tag);
          measured.delete(tag);
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const streamOne = (tag: string, res: http.ServerResponse, startAt: number) =>
    new Promise<void>((resolve) => {
      const times: number[] = [];
      written.set(tag, times);
      const next = () => {
        if (res.destroyed) return resolve();
        res.write(chunk({ content: `t${times.length} ` }));
        times.push(now());
        if (times.length === options.tokens) return resolve();
        // Against the call's own schedule, so a late timer does not push every later token back.
        const timer = setTimeout(
          () => {
            timers.delete(timer);
            next();
          },
          Math.max(0, startAt + times.length * options.paceMs - now()),
        );
        timers.add(timer);
      };
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          next();
        },
        Math.max(0, startAt - now()),
      );
      timers.add(timer);
    });

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    waiting: (tags) => (tags ? [...waiting.keys()].filter((tag) => tags.has(tag)).length : waiting.size),
    open: () => open.size,
    async release() {
      const calls = [...waiting];
      waiting.clear();
      const start = now();
      await Promise.all(calls.map(([tag, res], i) => streamOne(tag, res, start + (i / calls.length) * options.paceMs)));
    },
    written,
    reset() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const res of open) res.destroy();
      waiting.clear();
      measured.clear();
      written.clear();
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

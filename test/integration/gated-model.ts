import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One armed hold: the first request for its level waits until `release()`; `reached` resolves when it arrives. */
export interface Hold {
  reached: Promise<void>;
  release(): void;
}

/**
 * A stand-in LLM vendor on the chat_compat wire for tests that need to act while a call is in flight: it forwards
 * every request to an upstream chat_compat server (the demo model) and keeps each request body, except that the
 * first request for an armed level waits until that hold is released. `holdLevel` arms one hold at start (its
 * `reached` and `release` are the returned ones); `hold(level)` arms another later.
 */
export async function startGatedModel(options: { upstream: string; holdLevel?: string }): Promise<
  Hold & {
    baseUrl: string;
    hold(level: string): Hold;
    requests(): number;
    /** Every request body received so far, in arrival order. */
    bodies(): string[];
    close(): Promise<void>;
  }
> {
  const armed: Array<Hold & { level: string; arrive(): void; released: Promise<void> }> = [];
  const bodies: string[] = [];
  const releases: Array<() => void> = [];

  const hold = (level: string): Hold => {
    let arrive!: () => void;
    const reached = new Promise<void>((resolve) => (arrive = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    armed.push({ level, reached, release, arrive, released });
    releases.push(release);
    return { reached, release };
  };
  const first = options.holdLevel ? hold(options.holdLevel) : { reached: Promise.resolve(), release: () => {} };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        bodies.push(body);
        const index = armed.findIndex((h) => body.includes(`Keel level: ${h.level}`));
        if (index >= 0) {
          const [held] = armed.splice(index, 1);
          held!.arrive();
          await held!.released;
        }
        const upstream = await fetch(`${options.upstream}${req.url?.replace(/^\/v1/, '') ?? ''}`, {
          method: req.method,
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          body: req.method === 'GET' ? undefined : body,
        });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await upstream.arrayBuffer()));
      })().catch(() => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    reached: first.reached,
    release: first.release,
    hold,
    requests: () => bodies.length,
    bodies: () => [...bodies],
    async close() {
      for (const release of releases) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

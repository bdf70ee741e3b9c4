import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in LLM vendor on the chat_compat wire for tests that need to act while a call is in flight:
 * it forwards every request to an upstream chat_compat server (the demo model), except that the first
 * request for the given level waits until `release()`. `reached` resolves when that request arrives.
 */
export async function startGatedModel(options: { upstream: string; holdLevel: string }): Promise<{
  baseUrl: string;
  reached: Promise<void>;
  release(): void;
  requests(): number;
  close(): Promise<void>;
}> {
  let markReached!: () => void;
  const reached = new Promise<void>((resolve) => (markReached = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  let count = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        count += 1;
        const body = Buffer.concat(chunks).toString('utf8');
        if (!held && body.includes(`Keel level: ${options.holdLevel}`)) {
          held = true;
          markReached();
          await released;
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
    reached,
    release,
    requests: () => count,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

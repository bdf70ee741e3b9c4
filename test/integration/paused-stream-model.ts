import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in LLM vendor on the chat_compat wire for tests that act while a model call is streaming: it forwards each
 * request to an upstream chat_compat server (the demo model) and relays the answer as it comes, event by event,
 * except that the first streamed answer for `level` stops after `afterEvents` events until `release()`. `reached`
 * resolves when that answer has paused.
 */
export async function startPausedStreamModel(options: { upstream: string; level: string; afterEvents: number }) {
  let reachedResolve!: () => void;
  const reached = new Promise<void>((resolve) => (reachedResolve = resolve));
  let releaseResolve!: () => void;
  const released = new Promise<void>((resolve) => (releaseResolve = resolve));
  let armed = true;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const pause = armed && body.includes(`Keel level: ${options.level}`) && body.includes('"stream":true');
        if (pause) armed = false;
        const upstream = await fetch(`${options.upstream}${req.url?.replace(/^\/v1/, '') ?? ''}`, {
          method: req.method,
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          body: req.method === 'GET' ? undefined : body,
        });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        if (!pause || !upstream.body) {
          res.end(Buffer.from(await upstream.arrayBuffer()));
          return;
        }
        // Relay whole events (`\n\n`-terminated), pausing once after `afterEvents` of them.
        let pending = '';
        let sent = 0;
        const decoder = new TextDecoder();
        for await (const piece of upstream.body as unknown as AsyncIterable<Uint8Array>) {
          pending += decoder.decode(piece, { stream: true });
          let end: number;
          while ((end = pending.indexOf('\n\n')) >= 0) {
            res.write(pending.slice(0, end + 2));
            pending = pending.slice(end + 2);
            sent += 1;
            if (sent === options.afterEvents) {
              reachedResolve();
              await released;
            }
          }
        }
        res.end(pending);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    reached,
    release: () => releaseResolve(),
    close: () =>
      new Promise<void>((resolve) => {
        releaseResolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in LLM vendor on the chat_compat wire whose stream fails part-way, once: it forwards each request to an
 * upstream chat_compat server (the demo model) and relays the answer, except that the first streamed answer for
 * `level` asked of `model` pauses after `afterEvents` events (`reached` resolves) until `fail()`, then sends the
 * `error` event OpenAI sends when a rate limit strikes after the 200 (a 429 mid-stream) and ends. The pause lets a
 * test see the partial output reach its client before the failure.
 */
export async function startFailingStreamModel(options: {
  upstream: string;
  level: string;
  model: string;
  afterEvents: number;
}) {
  let reachedResolve!: () => void;
  const reached = new Promise<void>((resolve) => (reachedResolve = resolve));
  let failResolve!: () => void;
  const failNow = new Promise<void>((resolve) => (failResolve = resolve));
  let armed = true;
  const rateLimited = {
    error: {
      message: 'Rate limit reached for requests per min (RPM). Please try again in 1.4s.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    },
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const fail =
          armed &&
          body.includes(`Keel level: ${options.level}`) &&
          body.includes('"stream":true') &&
          (JSON.parse(body) as { model?: string }).model === options.model;
        if (fail) armed = false;
        const upstream = await fetch(`${options.upstream}${req.url?.replace(/^\/v1/, '') ?? ''}`, {
          method: req.method,
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          body: req.method === 'GET' ? undefined : body,
        });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        if (!fail || !upstream.body) {
          res.end(Buffer.from(await upstream.arrayBuffer()));
          return;
        }
        // Relay whole events (`\n\n`-terminated), then the error event in place of the rest.
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
              await failNow;
              res.end(`data: ${JSON.stringify(rateLimited)}\n\n`);
              return;
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
    fail: () => failResolve(),
    close: () =>
      new Promise<void>((resolve) => {
        failResolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in LLM vendor on the chat_compat wire whose streamed answer for one level never ends: it forwards every
 * other request to an upstream chat_compat server (the demo model), but answers the first streamed request of
 * `level` itself with a content chunk every `paceMs` for as long as the client keeps reading, the way a long answer
 * keeps billing tokens. It records how many chunks it sent and when the client closed the response (a client that
 * aborts the request closes it; nothing else does, since the stream has no end of its own).
 */
export async function startEndlessStreamModel(options: { upstream: string; level: string; paceMs: number }) {
  let startedResolve!: () => void;
  const started = new Promise<void>((resolve) => (startedResolve = resolve));
  let closedResolve!: (chunksSent: number) => void;
  const closedByClient = new Promise<number>((resolve) => (closedResolve = resolve));
  let armed = true;
  let chunksSent = 0;
  let closedAt: number | undefined;
  const timers = new Set<NodeJS.Timeout>();

  const chunk = (delta: Record<string, unknown>) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-endless',
      object: 'chat.completion.chunk',
      created: 1_741_570_283,
      model: 'endless',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
      usage: null,
    })}\n\n`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (piece: Buffer) => chunks.push(piece));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const endless = armed && body.includes(`Keel level: ${options.level}`) && body.includes('"stream":true');
        if (endless) {
          armed = false;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(chunk({ role: 'assistant', content: '' }));
          res.on('close', () => {
            closedAt = Date.now();
            closedResolve(chunksSent);
          });
          const tick = () => {
            if (res.destroyed || res.writableEnded) return;
            chunksSent += 1;
            res.write(chunk({ content: `token ${chunksSent} ` }));
            if (chunksSent === 1) startedResolve();
            const timer = setTimeout(() => {
              timers.delete(timer);
              tick();
            }, options.paceMs);
            timers.add(timer);
          };
          tick();
          return;
        }
        const upstream = await fetch(`${options.upstream}${req.url?.replace(/^\/v1/, '') ?? ''}`, {
          method: req.method,
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          body: req.method === 'GET' ? undefined : body,
        });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await upstream.arrayBuffer()));
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    /** The endless answer has sent its first token. */
    started,
    /** Resolves, with the chunks sent by then, when the client closed the endless answer. */
    closedByClient,
    get chunksSent() {
      return chunksSent;
    },
    /** When (Date.now()) the client closed the endless answer. */
    get closedAt() {
      return closedAt;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in LLM vendor on the chat_compat wire whose stream goes silent part-way, once: it forwards each request to an
 * upstream chat_compat server (the demo model) and relays the answer, except that the first streamed answer for
 * `level` asked of `model` stops after `afterEvents` events and then sends nothing more, keeping the connection open,
 * the way a vendor that hangs after its 200 does. Only its client can end that answer; the fake records when it did.
 */
export async function startStallingStreamModel(options: {
  upstream: string;
  level: string;
  model: string;
  afterEvents: number;
}) {
  let stalledResolve!: () => void;
  const stalled = new Promise<void>((resolve) => (stalledResolve = resolve));
  let closedResolve!: () => void;
  const closedByClient = new Promise<void>((resolve) => (closedResolve = resolve));
  let armed = true;
  let closedAt: number | undefined;
  let stalledAt: number | undefined;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const stall =
          armed &&
          body.includes(`Keel level: ${options.level}`) &&
          body.includes('"stream":true') &&
          (JSON.parse(body) as { model?: string }).model === options.model;
        if (stall) armed = false;
        const upstream = await fetch(`${options.upstream}${req.url?.replace(/^\/v1/, '') ?? ''}`, {
          method: req.method,
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          body: req.method === 'GET' ? undefined : body,
        });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        if (!stall || !upstream.body) {
          res.end(Buffer.from(await upstream.arrayBuffer()));
          return;
        }
        // The response ends only when the client closes it (the stall answer never ends on its own).
        res.on('close', () => {
          closedAt = Date.now();
          closedResolve();
        });
        // Relay whole events (`\n\n`-terminated), then nothing: the rest of the upstream answer is read and dropped.
        let pending = '';
        let sent = 0;
        const decoder = new TextDecoder();
        for await (const piece of upstream.body as unknown as AsyncIterable<Uint8Array>) {
          if (sent >= options.afterEvents) continue;
          pending += decoder.decode(piece, { stream: true });
          let end: number;
          while (sent < options.afterEvents && (end = pending.indexOf('\n\n')) >= 0) {
            res.write(pending.slice(0, end + 2));
            pending = pending.slice(end + 2);
            sent += 1;
          }
          if (sent >= options.afterEvents) {
            stalledAt = Date.now();
            stalledResolve();
          }
        }
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    /** The stalling answer has sent its `afterEvents` events and will send nothing more. */
    stalled,
    /** Resolves when the client closed the stalled answer (nothing else ends it). */
    closedByClient,
    /** When (Date.now()) the answer went silent, and when its client closed it. */
    get stalledAt() {
      return stalledAt;
    },
    get closedAt() {
      return closedAt;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

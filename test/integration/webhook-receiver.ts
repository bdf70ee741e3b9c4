import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export type Verify = (body: string, header: string, secrets: string[], toleranceSeconds?: number) => boolean;

/**
 * The verification snippet of docs/webhooks.md, taken from the page itself (the `js` block that defines
 * verifyKeelSignature), so the snippet a reader copies is the one deliveries are checked with.
 */
export function documentedVerifier(): Verify {
  const page = fs.readFileSync(path.join(__dirname, '../../docs/webhooks.md'), 'utf8');
  const snippet = [...page.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((code) => code.includes('function verifyKeelSignature'));
  if (!snippet) throw new Error('docs/webhooks.md has no verifyKeelSignature snippet');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the documented snippet is the code under test
  const load = new Function('require', `${snippet}\nreturn verifyKeelSignature;`) as (load: NodeJS.Require) => Verify;
  return load(require);
}

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver on loopback. `answer` decides each request's status from how many came before it (0-based), and may hold
 * the request open by returning a promise; by default every request is answered 200.
 */
export async function startReceiver(
  answer: (index: number, request: Received) => number | Promise<number> = () => 200,
) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const one = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = received.push(one) - 1;
      void Promise.resolve(answer(index, one)).then(
        (status) => response.writeHead(status).end(),
        () => response.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openAIErrors } from './fake-openai';

/**
 * A chat_compat vendor that checks the API key as OpenAI does: a request whose `Authorization: Bearer <key>` is not
 * the key it currently expects gets OpenAI's 401 `invalid_api_key` body (echoing the key it was given, unmasked);
 * any other is forwarded to `upstream` (the
 * offline demo model, so a whole job runs). `expectKey` changes the expected key, as a vendor does after a rotation.
 */
export async function startKeyedModel(options: { upstream: string; key: string }): Promise<{
  baseUrl: string;
  expectKey(key: string): void;
  /** The Authorization header of every request received, in order. */
  authorizations(): string[];
  close(): Promise<void>;
}> {
  let expected = options.key;
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const authorization = req.headers.authorization ?? '';
        seen.push(authorization);
        if (authorization !== `Bearer ${expected}`) {
          res.writeHead(401, { 'content-type': 'application/json' });
          // OpenAI masks the key it echoes; a proxy in front of a vendor may not. Echo it whole, the worst case.
          const refused = openAIErrors.invalidApiKey();
          refused.error.message = `Incorrect API key provided: ${authorization.replace(/^Bearer /, '')}.`;
          res.end(JSON.stringify(refused));
          return;
        }
        const upstream = await fetch(`${options.upstream}${req.url?.replace(/^\/v1/, '') ?? ''}`, {
          method: req.method,
          headers: { 'content-type': 'application/json' },
          body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
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
    expectKey(key) {
      expected = key;
    },
    authorizations: () => [...seen],
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * One POST of `body` to `url`, answered with the status code. The whole exchange (connect to the answer's last byte)
 * is bounded by `timeoutMs`; redirects are not followed (a 3xx is an answer like any other non-2xx). The answer's body
 * is read and dropped.
 */
export function postOnce(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; lookup?: LookupFunction },
): Promise<number> {
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.lookup ? { lookup: options.lookup } : {}),
      },
      (response) => {
        response.on('data', () => {});
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

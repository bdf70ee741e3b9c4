import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Vercel REST API for the deployments flow Keel uses, on the real wire: `POST /v2/files` (body = file bytes,
 * `x-vercel-digest` = SHA-1, 400 on a digest mismatch), `POST /v13/deployments` (`{ name, files: [{ file, sha, size }] }`,
 * 400 `missing_files` naming unknown SHAs), `GET /v13/deployments/:id` (readyState QUEUED → BUILDING → READY, one
 * step per poll). Every endpoint wants `Authorization: Bearer <token>` (403 `forbidden` otherwise) and honours
 * `teamId`. Deployed files are served at `GET /_fake/deployments/:id/<path>` so a test can read what went live.
 */
export interface FakeVercel {
  url: string;
  token: string;
  readonly requests: ReadonlyArray<{ method: string; path: string; teamId: string | null }>;
  /** The next deployment create answers this instead. */
  failNextCreate(status: number, body: unknown): void;
  /** Deployments created from now on end in ERROR with this message. */
  failBuilds(message: string | undefined): void;
  deployment(id: string): { name: string; files: Map<string, Buffer>; readyState: string } | undefined;
  close(): Promise<void>;
}

const STATES = ['QUEUED', 'BUILDING', 'READY'];

export async function startFakeVercel(token = 'vercel-test-token'): Promise<FakeVercel> {
  const blobs = new Map<string, Buffer>();
  const deployments = new Map<
    string,
    { name: string; url: string; files: Map<string, Buffer>; step: number; error?: string; readyState: string }
  >();
  const requests: Array<{ method: string; path: string; teamId: string | null }> = [];
  let nextCreateFailure: { status: number; body: unknown } | undefined;
  let buildError: string | undefined;
  let count = 0;

  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const view = (id: string) => {
    const d = deployments.get(id)!;
    return {
      id,
      url: d.url,
      name: d.name,
      readyState: d.readyState,
      ...(d.readyState === 'ERROR' ? { errorMessage: d.error } : {}),
    };
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = new URL(request.url ?? '/', 'http://fake');
      requests.push({ method: request.method ?? '', path: target.pathname, teamId: target.searchParams.get('teamId') });
      const served = /^\/_fake\/deployments\/([^/]+)\/(.+)$/.exec(target.pathname);
      if (served) {
        const file = deployments.get(served[1]!)?.files.get(served[2]!);
        if (!file) return send(response, 404, { error: { code: 'not_found', message: 'not found' } });
        response.writeHead(200);
        return response.end(file);
      }
      if (request.headers.authorization !== `Bearer ${token}`) {
        return send(response, 403, { error: { code: 'forbidden', message: 'Not authorized' } });
      }
      if (request.method === 'POST' && target.pathname === '/v2/files') {
        const digest = String(request.headers['x-vercel-digest'] ?? '');
        const actual = crypto.createHash('sha1').update(body).digest('hex');
        if (digest !== actual) {
          return send(response, 400, {
            error: { code: 'invalid_digest', message: `The digest ${digest} does not match the file's ${actual}` },
          });
        }
        blobs.set(actual, body);
        return send(response, 200, {});
      }
      if (request.method === 'POST' && target.pathname === '/v13/deployments') {
        if (nextCreateFailure) {
          const failure = nextCreateFailure;
          nextCreateFailure = undefined;
          return send(response, failure.status, failure.body);
        }
        const parsed = JSON.parse(body.toString('utf8')) as {
          name?: string;
          files?: Array<{ file: string; sha: string; size: number }>;
        };
        if (!parsed.name || !Array.isArray(parsed.files)) {
          return send(response, 400, { error: { code: 'bad_request', message: 'Invalid request: name and files' } });
        }
        const missing = parsed.files.filter((f) => !blobs.has(f.sha)).map((f) => f.sha);
        if (missing.length > 0) {
          return send(response, 400, { error: { code: 'missing_files', message: 'Missing files', missing } });
        }
        count += 1;
        const id = `dpl_${count.toString().padStart(6, '0')}`;
        deployments.set(id, {
          name: parsed.name,
          url: `${parsed.name}-${id.slice(4)}.vercel.app`,
          files: new Map(parsed.files.map((f) => [f.file, blobs.get(f.sha)!])),
          step: 0,
          error: buildError,
          readyState: 'QUEUED',
        });
        return send(response, 200, view(id));
      }
      const polled = /^\/v13\/deployments\/([^/]+)$/.exec(target.pathname);
      if (request.method === 'GET' && polled) {
        const deployment = deployments.get(decodeURIComponent(polled[1]!));
        if (!deployment) return send(response, 404, { error: { code: 'not_found', message: 'Deployment not found' } });
        deployment.step += 1;
        deployment.readyState =
          deployment.error && deployment.step >= 2 ? 'ERROR' : STATES[Math.min(deployment.step, 2)]!;
        return send(response, 200, view(decodeURIComponent(polled[1]!)));
      }
      return send(response, 404, {
        error: { code: 'not_found', message: `no route ${request.method} ${target.pathname}` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    failNextCreate(status, body) {
      nextCreateFailure = { status, body };
    },
    failBuilds(message) {
      buildError = message;
    },
    deployment(id) {
      const d = deployments.get(id);
      return d ? { name: d.name, files: d.files, readyState: d.readyState } : undefined;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { AppError } from '../../http/errors';

/** The services behind the console, named as the error messages name them. */
export type UpstreamName = 'identity service' | 'ingest API';

/**
 * An upstream that could not be reached at all (refused, unknown host, connect timeout, reset). The network error code
 * (ECONNREFUSED, ENOTFOUND, UND_ERR_CONNECT_TIMEOUT…) is kept so every error body and page can show it: the identity
 * spec asks for it, and it is what an operator needs to tell a stopped service from a wrong address.
 */
export class UpstreamUnreachableError extends AppError {
  override name = 'UpstreamUnreachableError';
  constructor(
    readonly upstream: UpstreamName,
    readonly networkCode: string,
    readonly target: string,
  ) {
    super(
      isTimeout(networkCode) ? 504 : 502,
      upstream === 'identity service' ? 'identity_unreachable' : 'ingest_unreachable',
      `the ${upstream} at ${target} could not be reached (${networkCode})`,
    );
  }
}

function isTimeout(code: string): boolean {
  return code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT';
}

/** System network errors (ECONNREFUSED, ENOTFOUND, EAI_AGAIN…, not Node's ERR_*) and undici's network failures. */
const NETWORK_CODE = /^(E(?!RR_)[A-Z_]+|UND_ERR_(CONNECT_TIMEOUT|SOCKET|HEADERS_TIMEOUT|BODY_TIMEOUT|CLOSED))$/;

/**
 * The most specific network error code in what undici threw: its own code, else the first of an AggregateError's
 * (a name resolving to ::1 and 127.0.0.1 fails once per address), else its cause's. Undefined for anything that is not
 * a network failure (a programming error must not be reported as an unreachable service).
 */
export function networkErrorCode(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  const visit = (value: unknown): string | undefined => {
    if (!value || typeof value !== 'object' || seen.has(value)) return undefined;
    seen.add(value);
    const code = (value as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODE.test(code)) return code;
    const errors = (value as { errors?: unknown }).errors;
    for (const inner of Array.isArray(errors) ? (errors as unknown[]) : []) {
      const found = visit(inner);
      if (found) return found;
    }
    return visit((value as { cause?: unknown }).cause);
  };
  return visit(err);
}

export interface UpstreamResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

export interface UpstreamRequest {
  method: string;
  /** Path and query, starting with `/`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer | string;
  /** Stream responses (SSE) have no body timeout: they stay open as long as the job runs. */
  stream?: boolean;
}

/** One service behind the console: its base address and a connection pool with a short connect timeout. */
export class Upstream {
  private readonly agent: Agent;

  constructor(
    readonly name: UpstreamName,
    readonly baseUrl: string,
    connectTimeoutMs: number,
  ) {
    this.agent = new Agent({ connect: { timeout: connectTimeoutMs } });
  }

  /** Sends a request; a network failure becomes UpstreamUnreachableError, any HTTP status is the caller's. */
  async send(req: UpstreamRequest): Promise<UpstreamResponse> {
    try {
      const res = await request(`${this.baseUrl}${req.path}`, {
        dispatcher: this.agent,
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body,
        headersTimeout: 60_000,
        bodyTimeout: req.stream ? 0 : 60_000,
      });
      return { statusCode: res.statusCode, headers: res.headers, body: res.body };
    } catch (err) {
      const code = networkErrorCode(err);
      if (code) throw new UpstreamUnreachableError(this.name, code, this.baseUrl);
      throw err;
    }
  }

  /** A request whose answer is small JSON (or an error body): read whole, parsed when it is JSON. */
  async json(req: UpstreamRequest): Promise<{ statusCode: number; headers: IncomingHttpHeaders; body: unknown }> {
    const res = await this.send(req);
    const text = await readText(res.body, this);
    let body: unknown = text;
    if (String(res.headers['content-type'] ?? '').includes('json') && text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    return { statusCode: res.statusCode, headers: res.headers, body };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function readText(body: Readable, upstream: Upstream): Promise<string> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    const code = networkErrorCode(err);
    if (code) throw new UpstreamUnreachableError(upstream.name, code, upstream.baseUrl);
    throw err;
  }
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) and those the proxy recomputes; never relayed in either direction. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** The response headers to hand to the browser: everything but hop-by-hop ones. */
export function relayableHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

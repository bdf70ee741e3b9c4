import * as z from 'zod/mini';

/** A refused or failed call: `status` 0 means the console could not be reached at all. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function refusal(res: Response, body: unknown): ApiError {
  const parsed = ErrorBody.safeParse(body);
  const retryAfter = Number(res.headers.get('retry-after'));
  return new ApiError(
    res.status,
    parsed.success ? parsed.data.error.code : `http_${res.status}`,
    parsed.success ? parsed.data.error.message : `The console answered ${res.status} ${res.statusText}`.trim(),
    body,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/** One call to the console's own HTTP API (same origin, session cookie), its answer checked against `schema`. */
export async function call<T>(path: string, schema: z.ZodMiniType<T>, options: CallOptions = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: options.method ?? 'GET',
      headers: options.body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'The console could not be reached. Check your connection and try again.');
  }
  const body = await readJson(res);
  if (!res.ok) throw refusal(res, body);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(res.status, 'unexpected_response', `Unexpected answer from ${path}: ${parsed.error.message}`);
  }
  return parsed.data;
}

/** The raw text of a file (job files are served as bytes). */
export async function callText(path: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(path, { credentials: 'same-origin', signal });
  if (!res.ok) throw refusal(res, await readJson(res));
  return res.text();
}

export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

/** Path segments from user-visible ids are always encoded: ids come from URLs people can edit. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

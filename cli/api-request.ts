import type { StackState } from '../stack/state-file';
import { apiClient, type ApiClient } from '../clients/client';

/** Where the API is, who the CLI acts as, and where that address came from (said when it cannot be reached). */
export interface ApiTarget {
  baseUrl: string;
  token: string;
  source: string;
  stack?: StackState;
}

/** The API could not be reached at all (nothing listening, DNS, TLS): said with where the CLI looked and why. */
export class ApiUnreachable extends Error {
  override name = 'ApiUnreachable';
}

/**
 * Runs `call` with the typed client of `target`; a network failure becomes ApiUnreachable naming the URL, where it
 * came from and how to start Keel, instead of a bare `fetch failed`.
 */
export async function reach<T>(target: ApiTarget, call: (client: ApiClient) => Promise<T>): Promise<T> {
  try {
    return await call(apiClient(target.baseUrl, target.token));
  } catch (err) {
    if (!(err instanceof TypeError) || err.name === 'AbortError') throw err;
    throw new ApiUnreachable(
      `cannot reach the Keel API at ${target.baseUrl} (from ${target.source}): ${networkCause(err)}\n` +
        'Start Keel with `npm start` (in this directory, or with the same DATA_DIR), or set KEEL_API_URL to a running API.',
    );
  }
}

function networkCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

/**
 * Opaque keyset cursors for every list of the API, on the workflow list's model (db/workflow-list.ts): URL-safe
 * base64 without padding of the last row's ordering values joined by `|`; the next page starts strictly after them.
 * A cursor we would not have issued decodes to undefined (the routes answer 400 `invalid_cursor`).
 */

const BASE64URL_UNPADDED = /^[A-Za-z0-9_-]+$/;
const MAX_CURSOR_CHARS = 300;
/** A timestamp as the list queries format it: RFC 3339 UTC with microseconds. */
export const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** SQL that renders a timestamptz column the way cursors carry it (a JS Date would drop the microseconds). */
export function rfc3339(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export function encodeKeyset(parts: readonly string[]): string {
  return Buffer.from(parts.join('|'), 'utf8').toString('base64url');
}

/** The cursor's parts when there are exactly `patterns.length` of them and each matches its pattern. */
export function decodeKeyset(cursor: string, patterns: readonly RegExp[]): string[] | undefined {
  if (cursor.length > MAX_CURSOR_CHARS || !BASE64URL_UNPADDED.test(cursor) || cursor.length % 4 === 1) return undefined;
  const buffer = Buffer.from(cursor, 'base64url');
  if (buffer.toString('base64url') !== cursor) return undefined;
  const parts = buffer.toString('utf8').split('|');
  if (parts.length !== patterns.length) return undefined;
  for (let i = 0; i < parts.length; i += 1) if (!patterns[i]!.test(parts[i]!)) return undefined;
  if (patterns.includes(CURSOR_TIME)) {
    const time = parts[patterns.indexOf(CURSOR_TIME)]!;
    const ms = Date.parse(time);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== time.slice(0, 19)) return undefined;
  }
  return parts;
}

/** The page and its next cursor: null when the page came back short (the spec's rule for the workflow list). */
export function pageOf<T>(
  rows: T[],
  limit: number,
  cursorOf: (row: T) => string[],
): { rows: T[]; next_cursor: string | null } {
  const last = rows.at(-1);
  return { rows, next_cursor: rows.length < limit || !last ? null : encodeKeyset(cursorOf(last)) };
}

import type { Pool, QueryResultRow } from 'pg';

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

/** Options of a newest-first list: one org's rows, or every org's when `orgId` is null (admins). */
export interface NewestFirstOptions {
  orgId: string | null;
  limit: number;
  /** The last row's (created_at, id) of the page before. */
  after?: [string, string];
}

/**
 * One page of `table` newest first by (created_at, `id`), the id compared byte-wise so the order matches the
 * cursor's. `alias` qualifies the columns when `columns` uses one.
 */
export async function newestFirstPage<T extends QueryResultRow>(
  pool: Pool,
  list: { table: string; alias?: string; id: string; columns: string },
  options: NewestFirstOptions,
): Promise<T[]> {
  const column = (name: string) => (list.alias ? `${list.alias}.${name}` : name);
  const values: unknown[] = [];
  const param = (v: unknown) => `$${values.push(v)}`;
  const where: string[] = [];
  if (options.orgId !== null) where.push(`${column('org_id')} = ${param(options.orgId)}`);
  if (options.after) {
    where.push(
      `(${column('created_at')}, ${column(list.id)} COLLATE "C") < (${param(options.after[0])}::timestamptz, ${param(options.after[1])})`,
    );
  }
  const { rows } = await pool.query<T>(
    `SELECT ${list.columns} FROM ${list.table}${list.alias ? ` ${list.alias}` : ''} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${column('created_at')} DESC, ${column(list.id)} COLLATE "C" DESC LIMIT ${param(options.limit)}`,
    values,
  );
  return rows;
}

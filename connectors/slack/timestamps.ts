// Slack timestamps are strings of seconds and microseconds; doubles lose the last digit, so compare them as parts.

const DAY_MS = 86_400_000;

function parts(ts: string): [bigint, bigint] {
  const [seconds = '0', fraction = ''] = ts.split('.');
  return [BigInt(seconds), BigInt(fraction.padEnd(6, '0').slice(0, 6))];
}

export function compareTs(a: string, b: string): number {
  const [as, af] = parts(a);
  const [bs, bf] = parts(b);
  if (as !== bs) return as < bs ? -1 : 1;
  return af === bf ? 0 : af < bf ? -1 : 1;
}

export function maxTs(a: string | undefined, b: string): string {
  return a === undefined || compareTs(b, a) > 0 ? b : a;
}

export function tsToMs(ts: string): number {
  return Number(parts(ts)[0]) * 1000 + Math.floor(Number(parts(ts)[1]) / 1000);
}

/** `YYYY-MM-DD` of the message in UTC: its day bucket. */
export function utcDay(ts: string): string {
  return new Date(tsToMs(ts)).toISOString().slice(0, 10);
}

/** `HH:MM` in UTC. */
export function utcTime(ts: string): string {
  return new Date(tsToMs(ts)).toISOString().slice(11, 16);
}

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** A ms instant as Slack's `oldest` parameter (whole seconds). */
export function msToTs(ms: number): string {
  return `${Math.floor(ms / 1000)}.000000`;
}

/**
 * The rewind window (spec): `effective_oldest = min(cursor, start of today UTC − rewind_days)`. The cursor is floored
 * to the start of its UTC day, so the cursor's own day is re-read whole and its file never shrinks to the messages
 * after the cursor. Without a cursor the window start is used; older history comes from the backfill tool.
 */
export function effectiveOldestMs(cursorTs: string | undefined, nowMs: number, rewindDays: number): number {
  const windowStart = startOfUtcDay(nowMs) - rewindDays * DAY_MS;
  if (cursorTs === undefined) return windowStart;
  return Math.min(startOfUtcDay(tsToMs(cursorTs)), windowStart);
}

/** The permalink path Slack uses: `/archives/<channel>/p<ts without the dot>`. */
export function permalinkPath(channelId: string, ts: string): string {
  return `/archives/${channelId}/p${ts.replace('.', '')}`;
}

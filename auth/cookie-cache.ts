import { z } from 'zod';
import { UserSchema } from './routes/schemas';
import type { User } from '../db/users';

/** How long a signed snapshot of the session may stand in for a database check. */
export const COOKIE_CACHE_MS = 5 * 60 * 1000;

const CachedSessionSchema = z.object({
  sid: z.string().min(1),
  exp: z.number().int(),
  user: UserSchema,
});

/** The cache cookie's value (before signing): which session it vouches for, for whom, until when. */
export function encodeCookieCache(sessionId: string, user: User, nowMs: number): string {
  const payload = { sid: sessionId, exp: nowMs + COOKIE_CACHE_MS, user };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/**
 * The user the cache vouches for, if it belongs to `sessionId` and has not expired at `nowMs`. The value
 * must already have passed the signature check; anything malformed is a miss, never an error.
 */
export function decodeCookieCache(value: string, sessionId: string, nowMs: number): User | undefined {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = CachedSessionSchema.safeParse(json);
  if (!parsed.success || parsed.data.sid !== sessionId || nowMs >= parsed.data.exp) return undefined;
  return parsed.data.user;
}

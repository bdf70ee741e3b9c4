import crypto from 'node:crypto';
import { UnauthenticatedError } from './errors';

/** Compares in constant time, so a shared secret cannot be guessed byte by byte from response times. */
export function sameSecret(presented: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(presented).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * A service-to-service request presents the shared internal token as its bearer token; anything else is a 401 that
 * says what to send (`name` is the setting that holds it), never the token.
 */
export function requireInternalToken(authorization: string | undefined, expected: string, name: string): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match || !sameSecret(match[1]!, expected)) {
    throw new UnauthenticatedError(`internal endpoint: send Authorization: Bearer <${name}>`);
  }
}

/**
 * The ingest API's internal route where the identity service delivers a disabled user's token revocation
 * (auth/token-revocations.ts sends it, api/routes/internal-users.ts serves it).
 */
export const REVOKE_TOKENS_ROUTE = '/internal/users/:id/revoke-tokens';

export function revokeTokensPath(userId: string): string {
  return REVOKE_TOKENS_ROUTE.replace(':id', encodeURIComponent(userId));
}

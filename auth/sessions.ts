// The only module that touches lucia. lucia v3 is in maintenance mode (its author recommends owning the
// ~100 lines of session code instead); keeping it behind this interface makes that swap local.
import type { Pool } from 'pg';
import { loadLucia, loadLuciaPostgres } from './esm';
import type { IdentityTables } from '../db/qualified-tables';
import { toUser, type User } from '../db/users';

export interface SessionCookieAttributes {
  domain?: string;
  secure: boolean;
  sameSite: 'lax';
  httpOnly: true;
  path: '/';
  maxAge: number;
}

export interface ValidSession {
  id: string;
  expiresAt: Date;
  /** lucia extended the expiry: the cookie should be sent again. */
  fresh: boolean;
  user: User;
}

export interface SessionStore {
  readonly cookieName: string;
  readonly cookieAttributes: SessionCookieAttributes;
  create(userId: string): Promise<{ id: string; expiresAt: Date }>;
  validate(sessionId: string): Promise<ValidSession | undefined>;
  invalidate(sessionId: string): Promise<void>;
  invalidateUser(userId: string): Promise<void>;
}

export interface SessionStoreOptions {
  pool: Pool;
  tables: IdentityTables;
  cookieName: string;
  /** `undefined` for a host-only cookie (localhost). */
  cookieDomain: string | undefined;
  secure: boolean;
}

const SESSION_DAYS = 30;

/** Database-backed lucia sessions in the identity schema's `sessions` table. */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const { Lucia, TimeSpan } = loadLucia();
  const { NodePostgresAdapter } = loadLuciaPostgres();
  const adapter = new NodePostgresAdapter(options.pool, {
    user: options.tables.users,
    session: options.tables.sessions,
  });
  const lucia = new Lucia(adapter, {
    sessionExpiresIn: new TimeSpan(SESSION_DAYS, 'd'),
    sessionCookie: {
      name: options.cookieName,
      expires: true,
      attributes: { sameSite: 'lax', secure: options.secure, domain: options.cookieDomain, path: '/' },
    },
    // Every column of the user row, so a validated session carries the role, ban and budget.
    getUserAttributes: (attributes) => attributes,
  });
  const cookieAttributes: SessionCookieAttributes = {
    ...(options.cookieDomain ? { domain: options.cookieDomain } : {}),
    secure: options.secure,
    sameSite: 'lax',
    httpOnly: true,
    path: '/',
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  };

  return {
    cookieName: options.cookieName,
    cookieAttributes,
    async create(userId) {
      const session = await lucia.createSession(userId, {});
      return { id: session.id, expiresAt: session.expiresAt };
    },
    async validate(sessionId) {
      const { session, user } = await lucia.validateSession(sessionId);
      if (!session) return undefined;
      // The adapter hands back the user row's columns as lucia's "attributes".
      const row = user as unknown as Parameters<typeof toUser>[0];
      return { id: session.id, expiresAt: session.expiresAt, fresh: session.fresh, user: toUser(row) };
    },
    invalidate: (sessionId) => lucia.invalidateSession(sessionId),
    invalidateUser: (userId) => lucia.invalidateUserSessions(userId),
  };
}

import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COOKIE_CACHE_MS, decodeCookieCache, encodeCookieCache } from './cookie-cache';
import type { SessionStore } from './sessions';
import type { RevokedUsers } from './revoked-users';
import type { User } from '../db/users';

export const SESSION_COOKIE = 'keel_session';
export const CACHE_COOKIE = 'keel_session_cache';

export interface ResolvedSession {
  user: User;
  sessionId: string;
  /** `cache`: the signed 5-minute cookie vouched for it, no database read. */
  source: 'cache' | 'database';
}

/**
 * Turns the signed session cookie into a user. A fresh check (`fresh: true`) always asks the database;
 * otherwise a signed cache cookie younger than 5 minutes answers, unless its user was disabled since (the revoked
 * list), so a ban shows at once; a session revoked by sign-out elsewhere can take up to 5 minutes (docs/identity.md).
 */
export class SessionResolver {
  constructor(
    private readonly store: SessionStore,
    private readonly now: () => number,
    /** Users disabled within the cache's lifetime: their cache cookies no longer vouch for them. */
    private readonly revoked?: RevokedUsers,
  ) {}

  /** The session cookie's attributes (domain, Secure, SameSite=Lax, HttpOnly), for cookies that travel with it. */
  get cookieAttributes() {
    return this.store.cookieAttributes;
  }

  async resolve(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { fresh: boolean },
  ): Promise<ResolvedSession | undefined> {
    const sessionId = this.readSignedCookie(request, SESSION_COOKIE);
    if (!sessionId) return undefined;
    if (!options.fresh) {
      const cached = this.readSignedCookie(request, CACHE_COOKIE);
      const user = cached ? decodeCookieCache(cached, sessionId, this.now()) : undefined;
      if (user && !(await this.revoked?.isRevoked(user.id))) return { user, sessionId, source: 'cache' };
    }
    const session = await this.store.validate(sessionId);
    if (!session || session.user.banned) {
      // A banned user's leftover session (e.g. a ban written straight to the database) dies on first sight.
      if (session) await this.store.invalidate(session.id);
      this.clearCookies(reply);
      return undefined;
    }
    if (session.fresh) this.setSessionCookie(reply, session.id);
    this.setCacheCookie(reply, session.id, session.user);
    return { user: session.user, sessionId: session.id, source: 'database' };
  }

  /** Creates a database session for `user` and sets the session and cache cookies. */
  async start(reply: FastifyReply, user: User): Promise<{ id: string; expiresAt: Date }> {
    const session = await this.store.create(user.id);
    this.setSessionCookie(reply, session.id);
    this.setCacheCookie(reply, session.id, user);
    return session;
  }

  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const sessionId = this.readSignedCookie(request, SESSION_COOKIE);
    if (sessionId) await this.store.invalidate(sessionId);
    this.clearCookies(reply);
  }

  clearCookies(reply: FastifyReply): void {
    const { domain, path } = this.store.cookieAttributes;
    reply.clearCookie(SESSION_COOKIE, { domain, path });
    reply.clearCookie(CACHE_COOKIE, { domain, path });
  }

  private readSignedCookie(request: FastifyRequest, name: string): string | undefined {
    const raw = request.cookies[name];
    if (!raw) return undefined;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : undefined;
  }

  private setSessionCookie(reply: FastifyReply, sessionId: string): void {
    reply.setCookie(SESSION_COOKIE, sessionId, { ...this.store.cookieAttributes, signed: true });
  }

  private setCacheCookie(reply: FastifyReply, sessionId: string, user: User): void {
    reply.setCookie(CACHE_COOKIE, encodeCookieCache(sessionId, user, this.now()), {
      ...this.store.cookieAttributes,
      maxAge: COOKIE_CACHE_MS / 1000,
      signed: true,
    });
  }
}

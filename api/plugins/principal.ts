import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { TokenOwner } from '../../db/tokens';
import type { QueueStore } from '../../queue/queue-store';
import { RateLimitedError, UnauthorizedError } from '../../http/errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The token's owner; set on every /v1/* request that passed authentication. */
    principal?: TokenOwner;
  }
  interface FastifyContextConfig {
    /** The route authenticates its requests itself, by a signature (the chat system's callbacks), not by a token. */
    signedRequest?: boolean;
  }
}

export interface RateLimits {
  userPerMinute: number;
  orgPerMinute: number;
}

/** The authenticated owner of a /v1/* request; routes under /v1 can rely on it. */
export function principalOf(request: FastifyRequest): TokenOwner {
  if (!request.principal) throw new UnauthorizedError('missing API token');
  return request.principal;
}

/**
 * Authenticates every /v1/* request by its bearer token, then spends one point of the user's and the
 * org's per-minute windows in the queue store (shared by all API replicas through Redis). A refused
 * request stops here, before any handler stores or starts anything.
 */
export const principalPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      /** The owner of a presented token: a database lookup, or the dev token in the no-database mode. */
      findOwner: (token: string) => Promise<TokenOwner | undefined>;
      queue: QueueStore;
      rateLimits: RateLimits;
    },
  ) => {
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/v1/') || request.routeOptions.config.signedRequest) return;
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!match) throw new UnauthorizedError('missing API token: send Authorization: Bearer <token>');
      const owner = await opts.findOwner(match[1]!);
      if (!owner) throw new UnauthorizedError('invalid or revoked API token');
      request.principal = owner;

      // Both windows are charged on every request, concurrently (one round trip to Redis, not two).
      const [user, org] = await Promise.all([
        opts.queue.consume(`rl:user:${owner.user_id}`, opts.rateLimits.userPerMinute, 60),
        opts.queue.consume(`rl:org:${owner.org_id}`, opts.rateLimits.orgPerMinute, 60),
      ]);
      if (!user.allowed) throw new RateLimitedError('per-user', user.retryAfterMs);
      if (!org.allowed) throw new RateLimitedError('per-org', org.retryAfterMs);
    });
  },
  { name: 'keel-principal' },
);

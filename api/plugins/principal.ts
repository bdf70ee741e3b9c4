import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { TokenOwner } from '../../db/tokens';
import type { QueueStore } from '../../queue/queue-store';
import type { Principal } from '../../jobs/visibility';
import { AppError, UnauthorizedError } from '../../http/errors';
import { chargeRateLimits, type RateLimits } from '../../jobs/admit';

/** The signed-in user's identity id, as the identity service's preflight returned it to the console. */
export const ACTING_USER_HEADER = 'x-keel-acting-user';
/** That user's identity role; `admin` bypasses ownership. */
export const ACTING_ROLE_HEADER = 'x-keel-acting-role';

const ActingHeadersSchema = z.object({
  user: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces'),
  role: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[a-z_]+$/, 'a role such as user or admin'),
});

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts as; set on every /v1/* request that passed authentication. */
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** The route authenticates its requests itself, by a signature (the chat system's callbacks), not by a token. */
    signedRequest?: boolean;
    /** The route answers without a token (liveness). Every other route needs one. */
    public?: boolean;
  }
}

export type { RateLimits } from '../../jobs/admit';

/** The authenticated principal of a /v1/* request; routes under /v1 can rely on it. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError('missing API token');
  return request.principal;
}

/**
 * The principal a request acts as. Acting-user headers are honoured only from a token flagged `acts_for_users`; from
 * any other token they are a 403, so a browser (or a machine client) cannot name someone else. The acting user keeps
 * the token's org; they are an admin only when both the token and their identity role are.
 */
export function actingPrincipal(owner: TokenOwner, request: FastifyRequest): Principal {
  const user = request.headers[ACTING_USER_HEADER];
  const role = request.headers[ACTING_ROLE_HEADER];
  if (user === undefined && role === undefined) return owner;
  if (!owner.acts_for_users) {
    throw new AppError(
      403,
      'acting_not_allowed',
      `this API token may not act for users: ${ACTING_USER_HEADER} is only for the console's token`,
    );
  }
  const parsed = ActingHeadersSchema.safeParse({ user, role });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const header = issue.path[0] === 'user' ? ACTING_USER_HEADER : ACTING_ROLE_HEADER;
    throw new AppError(
      400,
      'invalid_request',
      `${header}: ${user === undefined || role === undefined ? 'send both acting-user headers' : issue.message}`,
    );
  }
  return {
    token_id: owner.token_id,
    user_id: parsed.data.user,
    org_id: owner.org_id,
    is_admin: owner.is_admin && parsed.data.role === 'admin',
    acting: true,
  };
}

/**
 * Authenticates every request of a route not marked `public` by its bearer token, then spends one point of the user's and the
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
      // Decided on the route the router matched (it decodes the path: `/%761/models` is `/v1/models`), never on the
      // raw URL: every route needs a token unless it is marked public or signed. A path no route matches reveals
      // nothing but its 404; under /v1/ it still wants a token first, as it always did.
      const { url, config } = request.routeOptions;
      if (url === undefined ? !request.url.startsWith('/v1/') : config.public || config.signedRequest) return;
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!match) throw new UnauthorizedError('missing API token: send Authorization: Bearer <token>');
      const owner = await opts.findOwner(match[1]!);
      if (!owner) throw new UnauthorizedError('invalid or revoked API token');
      const principal = actingPrincipal(owner, request);
      request.principal = principal;

      // Every request is charged, reads too; a submission is not charged again by admission (jobs/admit.ts).
      await chargeRateLimits(opts, principal, (err) =>
        request.log.warn({ err }, 'rate limits unavailable (queue store): request let through'),
      );
    });
  },
  { name: 'keel-principal' },
);

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { revokeUserTokens } from '../../db/tokens';
import { REVOKE_TOKENS_ROUTE, requireInternalToken } from '../../http/internal-token';
import type { ApiDeps } from '../deps';
import { ErrorSchema } from './chat';

const Params = z.strictObject({ id: z.string().min(1).max(200) });

/**
 * Service-to-service: the identity service, keeping a database of its own, tells the ingest API that a user was
 * disabled, and every API token of theirs stops at once. Authenticated by the shared internal token (the API's
 * IDENTITY_INTERNAL_TOKEN, the identity service's INTERNAL_API_TOKEN), not by an API token; registered only when that
 * is configured. Idempotent, so the identity service may deliver it again until it sees a 200. docs/tokens.md.
 */
export function internalUserRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const internalToken = deps.internalToken;
    if (!internalToken) return;
    app.post(
      REVOKE_TOKENS_ROUTE,
      {
        config: { public: true },
        schema: {
          params: Params,
          response: { 200: z.object({ user_id: z.string(), revoked: z.number().int() }), 401: ErrorSchema },
        },
      },
      async (request) => {
        requireInternalToken(request.headers.authorization, internalToken, 'IDENTITY_INTERNAL_TOKEN');
        const revoked = await revokeUserTokens(deps.pool, request.params.id);
        request.log.info(
          { user_id: request.params.id, revoked },
          'api tokens revoked: the identity service disabled the user',
        );
        return { user_id: request.params.id, revoked };
      },
    );
  };
}

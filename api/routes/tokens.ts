import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createToken, getTokenListing, listTokens, revokeToken, type TokenListing } from '../../db/tokens';
import { Invalid, NotFound } from '../../refusals/refusal';
import type { Principal } from '../../jobs/visibility';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

/** A token made here lives this long unless `expires_at` says otherwise (docs/tokens.md). */
export const DEFAULT_TOKEN_DAYS = 90;
/** The longest a token made here may live. */
export const MAX_TOKEN_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;

const TokenSchema = z.object({
  token_id: z.string(),
  user_id: z.string(),
  org_id: z.string(),
  is_admin: z.boolean(),
  label: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

function view(row: TokenListing): z.infer<typeof TokenSchema> {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    token_id: row.token_id,
    user_id: row.user_id,
    org_id: row.org_id,
    is_admin: row.is_admin,
    label: row.label,
    created_at: row.created_at.toISOString(),
    expires_at: iso(row.expires_at),
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
  };
}

/** An admin token (not acting for a member) manages every token; anyone else only their own, in their org. */
function mayManage(principal: Principal, row: TokenListing): boolean {
  if (principal.is_admin) return true;
  return row.user_id === principal.user_id && row.org_id === principal.org_id;
}

/**
 * A caller's own API tokens: make one (with an expiry), list them, revoke one. Another user's token is 404, as every
 * other resource of someone else's. docs/tokens.md.
 */
export function tokenRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/tokens',
      {
        schema: {
          querystring: z.strictObject({ user: z.string().min(1).max(200).optional() }),
          response: { 200: z.object({ tokens: z.array(TokenSchema) }), 400: ErrorSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const rows = principal.is_admin
          ? await listTokens(deps.pool, { userId: request.query.user })
          : await listTokens(deps.pool, { userId: principal.user_id, orgId: principal.org_id });
        return { tokens: rows.map(view) };
      },
    );

    app.post(
      '/v1/tokens',
      {
        schema: {
          body: z.strictObject({
            label: z.string().trim().min(1).max(200).optional(),
            /** ISO 8601 instant in the future, at most MAX_TOKEN_DAYS away; default DEFAULT_TOKEN_DAYS from now. */
            expires_at: z.iso.datetime({ offset: true }).optional(),
          }),
          response: { 201: TokenSchema.extend({ token: z.string() }), 400: ErrorSchema },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const now = Date.now();
        const expiresAt = request.body.expires_at
          ? new Date(request.body.expires_at)
          : new Date(now + DEFAULT_TOKEN_DAYS * DAY_MS);
        if (expiresAt.getTime() <= now || expiresAt.getTime() > now + MAX_TOKEN_DAYS * DAY_MS) {
          throw new Invalid(
            'invalid_request',
            `expires_at: must be in the future and at most ${MAX_TOKEN_DAYS} days away`,
          );
        }
        // The new token is the caller's own: never more than the caller (an acting member is never an admin here).
        const { token, tokenId } = await createToken(deps.pool, {
          userId: principal.user_id,
          orgId: principal.org_id,
          isAdmin: principal.is_admin,
          label: request.body.label,
          expiresAt,
        });
        const row = await getTokenListing(deps.pool, tokenId);
        return reply.code(201).send({ ...view(row!), token });
      },
    );

    app.delete(
      '/v1/tokens/:id',
      {
        schema: {
          params: z.object({ id: z.string().min(1).max(100) }),
          response: { 200: TokenSchema, 404: ErrorSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const row = await getTokenListing(deps.pool, request.params.id);
        if (!row || !mayManage(principal, row)) throw new NotFound(`token ${request.params.id}`);
        return view((await revokeToken(deps.pool, row.token_id))!);
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { redirectResponse } from '../../http/body-schemas';
import { AppError } from '../../http/errors';
import { Forbidden, Invalid, NotFound } from '../../refusals/refusal';
import type { AuthContext } from '../context';
import type { OidcClient } from '../oidc';
import { userForProviderIdentity } from '../provider-users';
import { ErrorSchema } from './schemas';

export const OAUTH_COOKIE = 'keel_oauth';
const OAUTH_COOKIE_SECONDS = 10 * 60;
const CALLBACK_PREFIX = '/api/auth/callback/';

const PendingSchema = z.object({ state: z.string().min(1), verifier: z.string().min(1), returnTo: z.url() });

/**
 * OpenID Connect sign-in: `GET /api/auth/sign-in/<idp>` starts the flow (PKCE verifier and state kept in a
 * signed, short-lived cookie scoped to the callback path) and `GET /api/auth/callback/<idp>` finishes it.
 */
export function oidcRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  const { env } = ctx;
  const trusted = new Set([env.AUTHLIB_URL, ...env.TRUSTED_ORIGINS]);
  const cookieOptions = { ...ctx.sessions.cookieAttributes, path: CALLBACK_PREFIX, maxAge: OAUTH_COOKIE_SECONDS };

  /** Where to land after sign-in: an address on a trusted origin (never an open redirect). */
  const returnTo = (requested: string | undefined): string => {
    const fallback = `${env.TRUSTED_ORIGINS[0]}/`;
    if (!requested) return fallback;
    if (!URL.canParse(requested, fallback)) throw new Invalid('invalid_request', 'callbackURL: not a URL');
    const url = new URL(requested, fallback);
    if (!trusted.has(url.origin)) {
      throw new Invalid('invalid_request', `callbackURL: ${url.origin} is not in TRUSTED_ORIGINS`);
    }
    return url.href;
  };

  const client = (idp: string): OidcClient => {
    if (idp !== env.IDP_ID) throw new NotFound(`identity provider ${idp}`);
    if (!ctx.oidc) {
      throw new AppError(404, 'oidc_not_configured', 'no identity provider is configured (IDP_ISSUER_URL and friends)');
    }
    return ctx.oidc;
  };

  return async (app) => {
    app.get(
      '/api/auth/sign-in/:idp',
      {
        schema: {
          params: z.object({ idp: z.string().max(64) }),
          querystring: z.object({ callbackURL: z.string().max(2000).optional() }),
          response: {
            302: redirectResponse("to the identity provider's sign-in page"),
            400: ErrorSchema,
            404: ErrorSchema,
            502: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const oidc = client(request.params.idp);
        const landing = returnTo(request.query.callbackURL);
        const { url, pending } = await oidc.start().catch((err: unknown) => {
          request.log.warn({ err }, 'OIDC discovery failed');
          throw new AppError(502, 'provider_unreachable', 'the identity provider could not be reached; retry');
        });
        const value = Buffer.from(JSON.stringify({ ...pending, returnTo: landing })).toString('base64url');
        reply.setCookie(OAUTH_COOKIE, value, { ...cookieOptions, signed: true });
        return reply.redirect(url, 302);
      },
    );

    app.get(
      '/api/auth/callback/:idp',
      {
        schema: {
          params: z.object({ idp: z.string().max(64) }),
          // The provider's parameters (code, state, iss, error…) are read by openid-client from the URL.
          querystring: z.looseObject({ error: z.string().optional(), error_description: z.string().optional() }),
          response: {
            302: redirectResponse('signed in (the session cookie is set): to the page the sign-in started from'),
            400: ErrorSchema,
            403: ErrorSchema,
            404: ErrorSchema,
            502: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const oidc = client(request.params.idp);
        const pending = readPending(request.cookies[OAUTH_COOKIE], (raw) => request.unsignCookie(raw));
        reply.clearCookie(OAUTH_COOKIE, { domain: cookieOptions.domain, path: cookieOptions.path });
        if (!pending) {
          throw new Invalid('oauth_state_missing', 'no sign-in in progress in this browser: start it again');
        }
        if (request.query.error) {
          throw new Invalid(
            'provider_error',
            `${request.query.error}${request.query.error_description ? `: ${request.query.error_description}` : ''}`,
          );
        }
        const identity = await oidc.finish(new URL(request.url, env.AUTHLIB_URL), pending).catch((err: unknown) => {
          request.log.warn({ err }, 'OIDC callback refused');
          if (isProtocolError(err)) {
            throw new Invalid('oauth_failed', `sign-in could not be completed: ${(err as Error).message}`);
          }
          throw new AppError(502, 'provider_unreachable', 'the identity provider could not be reached; retry');
        });
        if (!identity.email) {
          throw new Invalid('email_required', 'the identity provider did not share an email address');
        }
        const user = await userForProviderIdentity(ctx.pool, ctx.tables, {
          providerId: env.IDP_ID,
          identity: { ...identity, email: identity.email },
          adminEmails: env.ADMIN_EMAILS,
        });
        if (user.banned) {
          if (env.BANNED_REDIRECT_URL) return reply.redirect(env.BANNED_REDIRECT_URL, 302);
          throw new Forbidden(
            user.banReason === 'pending_approval' ? 'pending_approval' : 'account_disabled',
            'this account is not approved or is disabled',
          );
        }
        await ctx.sessions.start(reply, user);
        return reply.redirect(pending.returnTo, 302);
      },
    );
  };
}

function readPending(
  raw: string | undefined,
  unsign: (raw: string) => { valid: boolean; value: string | null },
): z.infer<typeof PendingSchema> | undefined {
  if (!raw) return undefined;
  const unsigned = unsign(raw);
  if (!unsigned.valid || !unsigned.value) return undefined;
  try {
    const parsed = PendingSchema.safeParse(JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** openid-client's refusals (state or PKCE mismatch, an error response) as opposed to a network failure. */
function isProtocolError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  const name = (err as { name?: unknown }).name;
  return (
    (typeof code === 'string' && code.startsWith('OAUTH_')) ||
    name === 'AuthorizationResponseError' ||
    name === 'ResponseBodyError' ||
    name === 'WWWAuthenticateChallengeError'
  );
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UnauthenticatedError } from '../../http/errors';
import { Forbidden, RateLimited } from '../../refusals/refusal';
import type { AuthContext } from '../context';
import { PASSWORD_MAX, verifyAgainstNothing, verifyPassword } from '../password';
import { findCredential } from '../../db/users';
import { ErrorSchema, UserSchema } from './schemas';

export const SignInEmailSchema = z.object({
  email: z.email().max(320),
  // No minimum here: a short wrong password is a failed sign-in (401), not a malformed request.
  password: z.string().min(1).max(PASSWORD_MAX),
});

/** Email and password sign-in (rate limited per IP before anything else) and the closed public sign-up. */
export function passwordRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/auth/sign-in/email',
      {
        // The attempt is spent before the body is even read, so malformed attempts count too.
        onRequest: async (request) => {
          const decision = await ctx.signInLimiter.consume(request.ip);
          if (!decision.allowed) throw new RateLimited('password sign-in', decision.retryAfterMs);
        },
        schema: {
          body: SignInEmailSchema,
          response: {
            200: z.object({ user: UserSchema, session: z.object({ expiresAt: z.string() }) }),
            400: ErrorSchema,
            401: ErrorSchema,
            403: ErrorSchema,
            429: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const { email, password } = request.body;
        const credential = await findCredential(ctx.pool, ctx.tables, email);
        if (!credential) {
          await verifyAgainstNothing(password);
          throw new UnauthenticatedError('wrong email or password');
        }
        if (!(await verifyPassword(credential.passwordHash, password))) {
          throw new UnauthenticatedError('wrong email or password');
        }
        if (credential.user.banned) {
          const pending = credential.user.banReason === 'pending_approval';
          throw new Forbidden(
            pending ? 'pending_approval' : 'account_disabled',
            pending ? 'this account waits for an admin to approve it' : 'this account is disabled',
          );
        }
        const session = await ctx.sessions.start(reply, credential.user);
        return { user: credential.user, session: { expiresAt: session.expiresAt.toISOString() } };
      },
    );

    // Accounts are minted by admins (`keel auth create-user`); the public endpoint exists only to say no.
    app.post('/api/auth/sign-up/email', { schema: { response: { 403: ErrorSchema } } }, async (_request, reply) =>
      reply.code(403).send({
        error: { code: 'sign_up_disabled', message: 'public sign-up is closed; ask an admin for an account' },
      }),
    );
  };
}

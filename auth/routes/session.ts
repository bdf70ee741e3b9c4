import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthContext } from '../context';
import { UserSchema } from './schemas';

/** get-session (null when signed out, like the sign-in library's) and sign-out. */
export function sessionRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/auth/get-session',
      {
        schema: {
          querystring: z.object({ disableCookieCache: z.enum(['true', 'false']).optional() }),
          response: {
            200: z.union([
              z.object({ user: UserSchema, session: z.object({ source: z.enum(['cache', 'database']) }) }),
              z.null(),
            ]),
          },
        },
      },
      async (request, reply) => {
        const session = await ctx.sessions.resolve(request, reply, {
          fresh: request.query.disableCookieCache === 'true',
        });
        return session ? { user: session.user, session: { source: session.source } } : null;
      },
    );

    app.post(
      '/api/auth/sign-out',
      { schema: { response: { 200: z.object({ success: z.literal(true) }) } } },
      async (request, reply) => {
        await ctx.sessions.end(request, reply);
        return { success: true as const };
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getUsersByIds } from '../../db/users';
import type { AuthContext } from '../context';
import { requireSession } from '../guards';
import { ErrorSchema, UserIdSchema } from './schemas';

/** More than a page of people-in-the-loop cards ever names at once. */
export const MAX_PEOPLE = 50;

const PeopleQuery = z.strictObject({
  // One id (`?id=a`) or several (`?id=a&id=b`).
  id: z.union([UserIdSchema, z.array(UserIdSchema).min(1).max(MAX_PEOPLE)]),
});

export const PersonSchema = z.object({ id: z.string(), name: z.string().nullable(), email: z.string() });

/**
 * `GET /people?id=…`: the name and email of users by id, for any signed-in user. The console shows who answered a
 * question, decided an approval or completed a task by name instead of by id; the ids it asks about come from the
 * caller's own jobs. Ids that name nobody are left out (an API token's user, such as `dev`, is not an identity user).
 */
export function peopleRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/people',
      {
        schema: {
          querystring: PeopleQuery,
          response: { 200: z.object({ people: z.array(PersonSchema) }), 400: ErrorSchema, 401: ErrorSchema },
        },
      },
      async (request, reply) => {
        await requireSession(ctx, request, reply);
        const ids = [...new Set(Array.isArray(request.query.id) ? request.query.id : [request.query.id])];
        const users = await getUsersByIds(ctx.pool, ctx.tables, ids);
        reply.header('cache-control', 'private, max-age=60');
        return { people: users.map((u) => ({ id: u.id, name: u.name, email: u.email })) };
      },
    );
  };
}

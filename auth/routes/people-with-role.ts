import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PEOPLE_WITH_ROLE_PATH, PeopleWithRoleResponse, sharedDatabasePeople } from '../../approvals/escalation-people';
import { requireInternalToken } from '../../http/internal-token';
import type { AuthContext } from '../context';
import { ErrorSchema } from './schemas';

const Query = z.strictObject({ role: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a role name') });

/**
 * Who holds a role, for the workers' escalations (docs/reminders.md): the enabled users of `role`, by email, at most
 * MAX_ESCALATION_PEOPLE. Service-to-service only, by the shared INTERNAL_API_TOKEN; registered only when that is set.
 */
export function peopleWithRoleRoutes(ctx: AuthContext, internalToken: string): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      PEOPLE_WITH_ROLE_PATH,
      {
        schema: { querystring: Query, response: { 200: PeopleWithRoleResponse, 400: ErrorSchema, 401: ErrorSchema } },
      },
      async (request) => {
        requireInternalToken(request.headers.authorization, internalToken, 'INTERNAL_API_TOKEN');
        return { people: await sharedDatabasePeople(ctx).withRole(request.query.role) };
      },
    );
    return Promise.resolve();
  };
}

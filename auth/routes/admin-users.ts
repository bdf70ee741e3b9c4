import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeUser, userStatus } from '../admin-change';
import { budgetState, monthStart } from '../../jobs/budget';
import type { AuthContext } from '../context';
import { requireAdmin } from '../guards';
import { listUsers, ROLES } from '../../db/users';
import { addUserAsAdmin } from '../new-users';
import { PASSWORD_MAX, PASSWORD_MIN } from '../password';
import { ErrorSchema, UserIdSchema, UserSchema } from './schemas';

export const PatchUserSchema = z.strictObject({
  disabled: z.boolean().optional(),
  role: z.enum(ROLES).optional(),
  budgetCents: z.number().int().min(0).max(100_000_000).optional(),
});
export type PatchUser = z.infer<typeof PatchUserSchema>;

/** An admin adds a user: with a password (email and password sign-in) or without (invited to the identity provider). */
export const NewUserSchema = z.strictObject({
  email: z.email().max(320),
  name: z.string().trim().min(1).max(200).optional(),
  role: z.enum(ROLES).default('user'),
  password: z
    .string()
    .min(PASSWORD_MIN, `a password needs at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX)
    .optional(),
});
export type NewUser = z.infer<typeof NewUserSchema>;

const ListedUserSchema = UserSchema.extend({
  status: z.enum(['active', 'pending', 'disabled']),
  spentCents: z.number().int(),
  /** What is left of the month's budget (the default when the user has none of their own); null for an exempt admin. */
  remainingCents: z.number().int().nullable(),
  overBudget: z.boolean(),
});

/** The admin screen's API: every user with role, status, budget and spend; and the one update route. */
export function adminUserRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/admin/users',
      {
        schema: {
          response: {
            200: z.object({ users: z.array(ListedUserSchema) }),
            401: ErrorSchema,
            403: ErrorSchema,
            503: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        await requireAdmin(ctx, request, reply);
        const now = ctx.now();
        const [users, spend] = await Promise.all([
          listUsers(ctx.pool, ctx.tables),
          ctx.ledger.spendByUser(monthStart(now)),
        ]);
        return {
          users: users.map((user) => {
            const budget = budgetState(user, spend.get(user.id) ?? 0, ctx.budgets.defaultBudgetCents, monthStart(now));
            return {
              ...user,
              status: userStatus(user),
              spentCents: budget.spentCents,
              remainingCents: budget.remainingCents,
              overBudget: budget.overBudget,
            };
          }),
        };
      },
    );

    app.post(
      '/admin/users',
      {
        schema: {
          body: NewUserSchema,
          response: {
            201: z.object({
              user: ListedUserSchema.omit({ spentCents: true, remainingCents: true, overBudget: true }),
            }),
            400: ErrorSchema,
            401: ErrorSchema,
            403: ErrorSchema,
            409: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const admin = await requireAdmin(ctx, request, reply);
        const user = await addUserAsAdmin(ctx.pool, ctx.tables, {
          ...request.body,
          actorId: admin.user.id,
          defaultBudgetCents: ctx.budgets.defaultBudgetCents,
        });
        return reply.code(201).send({ user: { ...user, status: userStatus(user) } });
      },
    );

    app.patch(
      '/admin/users/:id',
      {
        schema: {
          params: z.object({ id: UserIdSchema }),
          body: PatchUserSchema,
          response: {
            200: z.object({ user: UserSchema }),
            400: ErrorSchema,
            401: ErrorSchema,
            403: ErrorSchema,
            404: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const admin = await requireAdmin(ctx, request, reply);
        const user = await changeUser(ctx, {
          actorId: admin.user.id,
          targetId: request.params.id,
          action: 'update_user',
          change: request.body,
        });
        return { user };
      },
    );
  };
}

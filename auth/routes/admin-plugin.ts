import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { changeUser, userStatus, type applyAdminChange } from '../admin-change';
import type { AuthContext } from '../context';
import { requireAdmin } from '../guards';
import { addUserAsAdmin } from '../new-users';
import { PASSWORD_MAX, PASSWORD_MIN } from '../password';
import { listUsers, ROLES } from '../../db/users';
import { ErrorSchema, UserIdSchema, UserSchema } from './schemas';

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema };
const UserResponse = z.object({ user: UserSchema });

/**
 * The sign-in library's admin-plugin routes under /api/auth/admin/*. They share PATCH /admin/users/:id's
 * rules (self-lockout blocked, sessions revoked on ban, default budget on approval, an audit row each time).
 */
export function adminPluginRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/auth/admin/list-users',
      {
        schema: {
          response: {
            200: z.object({ users: z.array(UserSchema.extend({ status: z.string() })), total: z.number().int() }),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        await requireAdmin(ctx, request, reply);
        const users = await listUsers(ctx.pool, ctx.tables);
        return { users: users.map((user) => ({ ...user, status: userStatus(user) })), total: users.length };
      },
    );

    const change = async (
      request: Parameters<typeof requireAdmin>[1],
      reply: Parameters<typeof requireAdmin>[2],
      targetId: string,
      action: string,
      body: Parameters<typeof applyAdminChange>[2]['change'],
    ) => {
      const admin = await requireAdmin(ctx, request, reply);
      const user = await changeUser(ctx, { actorId: admin.user.id, targetId, action, change: body });
      return { user };
    };

    app.post(
      '/api/auth/admin/set-role',
      {
        schema: {
          body: z.strictObject({ userId: UserIdSchema, role: z.enum(ROLES) }),
          response: { 200: UserResponse, ...errors },
        },
      },
      (request, reply) => change(request, reply, request.body.userId, 'set_role', { role: request.body.role }),
    );

    app.post(
      '/api/auth/admin/ban-user',
      {
        schema: {
          body: z.strictObject({ userId: UserIdSchema, banReason: z.string().trim().min(1).max(500).optional() }),
          response: { 200: UserResponse, ...errors },
        },
      },
      (request, reply) =>
        change(request, reply, request.body.userId, 'ban_user', {
          disabled: true,
          ...(request.body.banReason ? { banReason: request.body.banReason } : {}),
        }),
    );

    // Admin-created users start banned (pending approval) like every new user; approval is unban-user or PATCH.
    app.post(
      '/api/auth/admin/create-user',
      {
        schema: {
          body: z.strictObject({
            email: z.email().max(320),
            password: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX),
            name: z.string().trim().min(1).max(200).optional(),
            role: z.enum(ROLES).default('user'),
          }),
          response: { 201: UserResponse, 409: ErrorSchema, ...errors },
        },
      },
      async (request, reply) => {
        const admin = await requireAdmin(ctx, request, reply);
        const user = await addUserAsAdmin(ctx.pool, ctx.tables, {
          ...request.body,
          actorId: admin.user.id,
          defaultBudgetCents: ctx.budgets.defaultBudgetCents,
        });
        return reply.code(201).send({ user });
      },
    );

    app.post(
      '/api/auth/admin/unban-user',
      {
        schema: { body: z.strictObject({ userId: UserIdSchema }), response: { 200: UserResponse, ...errors } },
      },
      (request, reply) => change(request, reply, request.body.userId, 'unban_user', { disabled: false }),
    );
  };
}

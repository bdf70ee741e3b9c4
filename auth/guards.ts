import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from './context';
import { UnauthenticatedError } from '../http/errors';
import { Forbidden } from '../refusals/refusal';
import type { ResolvedSession } from './session-resolver';

/** The caller's session, or 401. */
export async function requireSession(
  ctx: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { fresh: boolean } = { fresh: false },
): Promise<ResolvedSession> {
  const session = await ctx.sessions.resolve(request, reply, options);
  if (!session) throw new UnauthenticatedError();
  return session;
}

/** An admin's session, checked against the database (a demoted admin loses access at once): 401, or 403. */
export async function requireAdmin(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply) {
  const session = await requireSession(ctx, request, reply, { fresh: true });
  if (session.user.role !== 'admin') throw new Forbidden('admin_required', 'this endpoint requires the admin role');
  return session;
}

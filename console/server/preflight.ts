import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors';
import type { Upstream } from './upstream';

export const SessionUserSchema = z.object({ id: z.string().min(1), email: z.string(), role: z.string().min(1) });
export type SessionUser = z.infer<typeof SessionUserSchema>;

const PreflightOkSchema = z.object({ user: SessionUserSchema });
const ErrorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/**
 * A refusal whose JSON body the console sends as it is: the identity service's own `{ error }` (403 `not_owner`, 404,
 * 402 `over_budget`…), with `budget` beside it on a 402 so the page can show the numbers without another call.
 */
export class ConsoleRefusal extends AppError {
  override name = 'ConsoleRefusal';
  constructor(
    statusCode: number,
    code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(statusCode, code, message);
  }

  body(): Record<string, unknown> {
    return { error: { code: this.code, message: this.message }, ...this.extra };
  }
}

export interface PreflightQuery {
  workflow?: string;
  job?: string;
  /** Submissions: also refuse (402) a non-admin over their monthly budget. */
  budget?: boolean;
}

/**
 * The real check behind every server-side call (identity spec, "Authentication"): forwards the browser's cookie to
 * `GET /internal/preflight` and returns the signed-in user, or throws the refusal the console answers with (401
 * `unauthenticated`, 403, 404, 402 with the budget). The identity service's refreshed session cookies are relayed to
 * the browser, so its 5-minute cookie cache keeps answering later checks without a database read.
 */
export async function preflight(
  identity: Upstream,
  request: FastifyRequest,
  reply: FastifyReply,
  query: PreflightQuery = {},
): Promise<SessionUser> {
  const cookie = request.headers.cookie;
  if (!cookie) throw new ConsoleRefusal(401, 'unauthenticated', 'no session: sign in');
  const params = new URLSearchParams();
  if (query.workflow) params.set('workflow', query.workflow);
  if (query.job) params.set('job', query.job);
  if (query.budget) params.set('budget', '1');
  const search = params.size > 0 ? `?${params.toString()}` : '';
  const res = await identity.json({ method: 'GET', path: `/internal/preflight${search}`, headers: { cookie } });
  relaySetCookie(reply, res.headers['set-cookie']);

  if (res.statusCode === 200) {
    const parsed = PreflightOkSchema.safeParse(res.body);
    if (parsed.success) return parsed.data.user;
    throw new AppError(502, 'identity_bad_answer', 'the identity service answered the preflight with an unknown shape');
  }
  const refusal = ErrorBodySchema.safeParse(res.body);
  const message = refusal.success ? refusal.data.error.message : `preflight answered ${res.statusCode}`;
  switch (res.statusCode) {
    case 401:
      throw new ConsoleRefusal(401, 'unauthenticated', message);
    case 403:
      throw new ConsoleRefusal(403, refusal.success ? refusal.data.error.code : 'forbidden', message);
    case 404:
      throw new ConsoleRefusal(404, 'not_found', message);
    case 402:
      throw new ConsoleRefusal(402, 'over_budget', message, { budget: await readBudget(identity, cookie) });
    case 400:
      throw new ConsoleRefusal(400, refusal.success ? refusal.data.error.code : 'invalid_request', message);
    default:
      throw new AppError(502, 'identity_error', `the identity service's preflight answered ${res.statusCode}`);
  }
}

/** The caller's budget for a 402 body; null when it cannot be read (the refusal still stands). */
async function readBudget(identity: Upstream, cookie: string): Promise<unknown> {
  const res = await identity.json({ method: 'GET', path: '/me/budget', headers: { cookie } });
  return res.statusCode === 200 ? res.body : null;
}

export function relaySetCookie(reply: FastifyReply, setCookie: string | string[] | undefined): void {
  if (!setCookie) return;
  for (const value of Array.isArray(setCookie) ? setCookie : [setCookie]) reply.header('set-cookie', value);
}

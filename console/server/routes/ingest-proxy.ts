import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../http/errors';
import { NotFound } from '../../../refusals/refusal';
import { preflight, type PreflightQuery, type SessionUser } from '../preflight';
import { ingestHeaders, pathAfter, proxiedResponses, rawBody, relay } from '../proxy';
import type { Upstream, UpstreamResponse } from '../upstream';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const PREFIX = '/api/v1';

/** What the console must check before a request reaches the ingest API, read from its method, path and body. */
export interface ForwardPlan {
  preflight: PreflightQuery;
  /** A run submission: `created_by` in the body is the session's user, whatever the browser sent. */
  submission: boolean;
  /** An approval's owner is its job's: looked up before the ownership check. */
  approvalId?: string;
  stream: boolean;
}

const SubmissionBodySchema = z.looseObject({ workflow_id: z.string().min(1).max(200).optional() });

/**
 * The preflight a request needs: `job=` for /jobs/:id/*, `workflow=` for /workflows/:id/* (and a chat submission into
 * a workflow), `budget=1` on the routes that start a job (POST /v1/chat, POST /v1/workflows,
 * POST /v1/workflows/:id/prompts, POST /v1/jobs/:id/fork).
 */
export function planForward(method: string, segments: readonly string[], body: unknown): ForwardPlan {
  const [resource, id, sub] = segments;
  const plan: ForwardPlan = { preflight: {}, submission: false, stream: false };
  if (resource === 'jobs' && id) {
    plan.preflight.job = id;
    plan.stream = method === 'GET' && sub === 'stream' && segments.length === 3;
    // A fork starts a job: its monthly budget is checked like any submission's (docs/fork-and-compare.md).
    plan.submission = method === 'POST' && sub === 'fork' && segments.length === 3;
  } else if (resource === 'workflows' && id) {
    plan.preflight.workflow = id;
    plan.submission = method === 'POST' && sub === 'prompts' && segments.length === 3;
  } else if (resource === 'workflows' || resource === 'chat') {
    plan.submission = method === 'POST' && segments.length === 1;
    if (resource === 'chat' && plan.submission) {
      const parsed = SubmissionBodySchema.safeParse(body);
      if (parsed.success && parsed.data.workflow_id) plan.preflight.workflow = parsed.data.workflow_id;
    }
  } else if (resource === 'approvals' && id) {
    plan.approvalId = id;
  }
  plan.preflight.budget = plan.submission;
  return plan;
}

/** The session decides who creates a run: any `created_by` the browser put in the body (or its metadata) goes. */
export function withoutCreatedBy(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { created_by: _ignored, ...rest } = body as Record<string, unknown>;
  const metadata = rest.metadata;
  if (metadata && typeof metadata === 'object' && !Array.isArray(metadata) && 'created_by' in metadata) {
    const { created_by: _alsoIgnored, ...cleanMetadata } = metadata as Record<string, unknown>;
    rest.metadata = cleanMetadata;
  }
  return rest;
}

function decodeSegments(path: string): string[] {
  const segments = path.split('/').filter((s) => s !== '');
  try {
    return segments.map((s) => decodeURIComponent(s));
  } catch {
    throw new AppError(400, 'invalid_request', 'path: malformed percent-encoding');
  }
}

function jsonOf(buffer: Buffer | undefined): unknown {
  if (!buffer) return undefined;
  try {
    return JSON.parse(buffer.toString('utf8')) as unknown;
  } catch {
    // Not JSON: forwarded as it is, and the ingest API answers 400 in its own words.
    return undefined;
  }
}

/**
 * `/api/v1/*` → the ingest API's `/v1/*` on the signed-in user's behalf: preflight first (session, ownership of the
 * named job or workflow, the budget on submissions), then the request with the console's token and the acting user
 * (docs/console.md, "Acting for a user"). Lists are filtered to the user's own by the ingest API itself.
 */
export function ingestProxyRoutes(identity: Upstream, ingest: Upstream, token: string): FastifyPluginAsync {
  const send = (
    request: FastifyRequest,
    user: SessionUser,
    req: { method: string; path: string; body?: Buffer | string; stream?: boolean },
  ) => ingest.send({ ...req, headers: ingestHeaders(request, { token, user }) });

  return async (app) => {
    app.route({
      method: [...METHODS],
      url: `${PREFIX}/*`,
      schema: { response: proxiedResponses('ingest API') },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { path, search } = pathAfter(request, PREFIX);
        const segments = decodeSegments(path);
        if (segments.some((s) => s === '.' || s === '..' || s.includes('/'))) {
          throw new AppError(400, 'invalid_request', 'path: dot segments and encoded slashes are not accepted');
        }
        // The chat system's callbacks are signed by the chat system, never sent by a browser.
        if (segments[0] === 'chatapp') throw new NotFound(`route ${request.method} ${PREFIX}${path}`);

        let body = rawBody(request);
        const json = jsonOf(body);
        const plan = planForward(request.method, segments, json);
        let user = await preflight(identity, request, reply, plan.preflight);

        if (plan.approvalId) {
          // Looked up as the console itself, not as the user: the API hides another member's approval (404), and the
          // preflight is what tells "someone else's" (403) from "does not exist" (404), as for jobs and workflows.
          const approval = await ingest.json({
            method: 'GET',
            path: `/v1/approvals/${encodeURIComponent(plan.approvalId)}`,
            headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          });
          if (approval.statusCode === 401) throw tokenRejected();
          if (approval.statusCode !== 200) return reply.code(approval.statusCode).send(approval.body);
          const parsed = z.object({ job_id: z.string().min(1) }).safeParse(approval.body);
          if (!parsed.success)
            throw new AppError(502, 'ingest_bad_answer', 'the ingest API answered an unknown approval');
          user = await preflight(identity, request, reply, { job: parsed.data.job_id });
        }
        if (plan.submission && json !== undefined) body = Buffer.from(JSON.stringify(withoutCreatedBy(json)));

        const res = await send(request, user, {
          method: request.method,
          path: `/v1${path}${search}`,
          body,
          stream: plan.stream,
        });
        if (plan.stream) reply.header('x-accel-buffering', 'no');
        return relay(reply, checked(res));
      },
    });
  };
}

/**
 * The ingest API refusing the console's own credential is a configuration fault of the console, not the user's: a 401
 * passed on would send the page to sign in again, forever.
 */
function checked(res: UpstreamResponse): UpstreamResponse {
  if (res.statusCode === 401) {
    res.body.destroy();
    throw tokenRejected();
  }
  return res;
}

function tokenRejected(): AppError {
  return new AppError(
    502,
    'console_token_rejected',
    'the ingest API refused the console credential (CONSOLE_API_TOKEN): it must be a live token created with --acts-for-users',
  );
}

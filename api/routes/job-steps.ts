import { isGrpcServiceError, WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { NotFound } from '../../refusals/refusal';
import { visibleJob } from '../../jobs/visibility';
import { transcriptFromHistory } from '../../jobs/step-transcript';
import { temporalCall } from '../../temporal/temporal-call';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const StepParams = z.object({
  id: z.string().min(1).max(100),
  /** A level run's role and run, the last two parts of its level id (`<job>/<role>/<run>`). */
  role: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.-]+$/, 'a role such as L4.executor'),
  run: z
    .string()
    .min(1)
    .max(40)
    .regex(/^[\w-]+$/, 'a run such as 1, prelude or release'),
});

const Usage = z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), reasoning_tokens: z.number() });

export const StepTranscriptSchema = z.object({
  level_id: z.string(),
  calls: z.array(
    z.object({
      round: z.number().int(),
      attempt: z.number().int().describe('the model-call attempt that answered (Temporal retries a failed call)'),
      retried_because: z.string().nullable().describe('the failure of the attempt before, when there was a retry'),
      provider: z.string().nullable(),
      model: z.string().nullable(),
      usage: Usage.nullable(),
      cost_usd: z.number().nullable(),
      failure: z.string().nullable(),
    }),
  ),
  messages: z
    .array(
      z.object({
        role: z.string(),
        content: z.string().nullable(),
        tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })),
        tool_call_id: z.string().nullable(),
      }),
    )
    .describe('the prompt as sent, then each tool round, redacted as Keel redacts prompts'),
  output: z.string().nullable(),
  tools: z.array(z.string()),
});

/**
 * `GET /v1/jobs/:id/steps/:role/:run`: what one level run sent to its model and got back (the console's step drawer).
 * The events carry 280-character previews; the level's workflow history carries the messages as sent, the tool calls
 * with their arguments and results, and each model call's attempt. A run whose history Temporal no longer keeps (its
 * retention passed), or a step that calls no model (a product build's prelude), is a 404 naming why.
 */
export function jobStepRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/jobs/:id/steps/:role/:run',
      { schema: { params: StepParams, response: { 200: StepTranscriptSchema, 404: ErrorSchema, 503: ErrorSchema } } },
      async (request) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const levelId = `${job.job_id}/${request.params.role}/${request.params.run}`;
        const history = await temporalCall(deps, 'the step was not read', () =>
          deps.temporal.workflow.getHandle(levelId).fetchHistory(),
        ).catch((err: unknown) => {
          if (isNotFound(err)) throw new NotFound(`the history of ${levelId}`);
          throw err;
        });
        return transcriptFromHistory(levelId, history.events ?? [], deps.temporal.options.loadedDataConverter);
      },
    );
  };
}

/** gRPC's NOT_FOUND: reading the history of a workflow Temporal does not have answers with it (not the SDK's error). */
const GRPC_NOT_FOUND = 5;

function isNotFound(err: unknown): boolean {
  for (let link: unknown = err, depth = 0; link && depth < 8; depth += 1) {
    if (link instanceof WorkflowNotFoundError) return true;
    if (isGrpcServiceError(link) && Number(link.code) === GRPC_NOT_FOUND) return true;
    link = (link as { cause?: unknown }).cause;
  }
  return false;
}

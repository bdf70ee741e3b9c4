import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { redactPrompt } from '../../jobs/redact';
import { admitRequest } from '../admit-request';
import { checkJobBudget, submissionProject, submitJob } from '../../jobs/submit';
import { principalOf } from '../plugins/principal';
import {
  checkWebhookUrl,
  DEFAULT_WEBHOOK_EVENTS,
  WebhookRequestSchema,
  type WebhookSubscription,
} from '../../webhooks/subscription';
import { newWebhookSecret } from '../../webhooks/signature';

export const MAX_PROMPT_CHARS = 32_000;
const CATALOG_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

export const ChatRequestSchema = z.strictObject({
  prompt: z.string().trim().min(1, 'prompt must not be empty').max(MAX_PROMPT_CHARS),
  project_slug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes')
    .max(64)
    .optional(),
  workflow_id: z
    .string()
    .regex(/^wf-[0-9]+$/, 'a workflow id such as wf-12')
    .optional(),
  metadata: z
    .looseObject({
      model_tier: z.enum(['free', 'cheap', 'frontier']).optional(),
      /** Product-build pins (docs/product-builds.md): a template id, a design id, deploy on or off. */
      template: z.string().regex(CATALOG_ID, 'a template id such as static-page').optional(),
      design: z.string().regex(CATALOG_ID, 'a design id such as warm').optional(),
      deploy: z.boolean().optional(),
      /**
       * With fair scheduling on (docs/scheduling.md): the job's place in its org's queue, higher first (default 0);
       * it never moves the job ahead of another org's.
       */
      priority: z.number().int().min(-1000).max(1000).optional(),
    })
    .optional(),
  /**
   * The job's cost ceiling in USD: a model call that would pass it pauses the job with `budget_exceeded` and a budget
   * decision for the submitter (docs/budgets.md). At most the deployment's maximum
   * (JOB_BUDGET_MAX_USD, 400 `budget_above_maximum` above it); the deployment's JOB_BUDGET_USD when absent.
   */
  budget_usd: z.number().positive().max(1_000_000).optional(),
  /** The scenario to run first (a file in scenarios/); `build` by default. */
  scenario: z
    .string()
    .regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, 'a scenario name such as build')
    .optional(),
  /** A webhook for this job's events (docs/webhooks.md); its signing secret is in the 202 answer only. */
  webhook: WebhookRequestSchema.optional(),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

export const ChatAcceptedSchema = z.object({
  job_id: z.string(),
  workflow_id: z.string(),
  prompt_id: z.string(),
  status: z.literal('queued'),
  webhook: z
    .object({ url: z.string(), events: z.array(z.string()), secret: z.string() })
    .optional()
    .describe('the webhook subscribed, with the secret that signs its deliveries: shown this once, store it'),
});

export const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** A 402: which monthly budget is spent (the submitter's, the project's or the org's) and what is left of it. */
export const OverBudgetErrorSchema = z.object({
  error: z.object({
    code: z.literal('over_budget'),
    message: z.string(),
    budget: z.object({
      scope: z.enum(['user', 'project', 'org']),
      user_id: z.string().optional(),
      org_id: z.string().optional(),
      project_slug: z.string().optional(),
      budget_cents: z.number().int(),
      spent_cents: z.number().int(),
      remaining_cents: z.number().int(),
      period_start: z.string(),
    }),
  }),
});

export function chatRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/chat',
      {
        schema: {
          body: ChatRequestSchema,
          response: {
            202: ChatAcceptedSchema,
            400: ErrorSchema,
            401: ErrorSchema,
            402: OverBudgetErrorSchema,
            404: ErrorSchema,
            429: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const body = request.body;
        checkJobBudget(deps, body.budget_usd);
        const project = await submissionProject(deps, principalOf(request), {
          projectSlug: body.project_slug,
          workflowId: body.workflow_id,
        });
        let webhook: WebhookSubscription | undefined;
        if (body.webhook) {
          await checkWebhookUrl(body.webhook.url, deps.webhookAllowHosts ?? []);
          webhook = {
            url: body.webhook.url,
            events: body.webhook.events ?? [...DEFAULT_WEBHOOK_EVENTS],
            secret: newWebhookSecret(),
          };
        }
        const submitted = await admitRequest(
          deps,
          request,
          (admitted) =>
            submitJob(
              deps,
              admitted,
              {
                prompt: redactPrompt(body.prompt).text,
                projectSlug: body.project_slug,
                workflowId: body.workflow_id,
                scenario: body.scenario,
                modelTier: body.metadata?.model_tier,
                product: productPins(body.metadata),
                budgetUsd: body.budget_usd,
                priority: body.metadata?.priority,
                webhook,
              },
              request.log,
            ),
          project,
        );
        return reply.code(202).send({ ...submitted, status: 'queued' as const, ...(webhook ? { webhook } : {}) });
      },
    );
  };
}

/** The product-build pins of a request's metadata, or undefined when it has none. */
function productPins(
  metadata: ChatRequest['metadata'],
): { template?: string; design?: string; deploy?: boolean } | undefined {
  if (!metadata) return undefined;
  const { template, design, deploy } = metadata;
  if (template === undefined && design === undefined && deploy === undefined) return undefined;
  return { template, design, deploy };
}

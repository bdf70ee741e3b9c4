import * as z from 'zod/mini';

/** `GET /api/v1/jobs/:id/steps/:role/:run` (api/routes/job-steps.ts): a level run's transcript from its history. */
export const StepTranscript = z.looseObject({
  level_id: z.string(),
  calls: z.array(
    z.looseObject({
      round: z.number(),
      attempt: z.number(),
      retried_because: z.nullable(z.string()),
      provider: z.nullable(z.string()),
      model: z.nullable(z.string()),
      usage: z.nullable(
        z.looseObject({ prompt_tokens: z.number(), completion_tokens: z.number(), reasoning_tokens: z.number() }),
      ),
      cost_usd: z.nullable(z.number()),
      failure: z.nullable(z.string()),
    }),
  ),
  messages: z.array(
    z.looseObject({
      role: z.string(),
      content: z.nullable(z.string()),
      tool_calls: z.array(z.looseObject({ id: z.string(), name: z.string(), arguments: z.string() })),
      tool_call_id: z.nullable(z.string()),
    }),
  ),
  output: z.nullable(z.string()),
  tools: z.array(z.string()),
});
export type StepTranscript = z.infer<typeof StepTranscript>;

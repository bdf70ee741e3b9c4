import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageOf } from '../../db/keyset';
import { listWorkflowNotes } from '../../db/workflow-notes';
import { executeIntent, intentCatalog } from '../../jobs/intents';
import { visibleWorkflowRef } from '../../jobs/submit';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema, MAX_PROMPT_CHARS } from './chat';
import { cursorParts, DEFAULT_LIMIT, pageQuery } from './list-query';

const WORKFLOW_ID = z.string().regex(/^wf-[0-9]+$/, 'a workflow id such as wf-12');

const IntentSchema = z.object({
  name: z.string(),
  kind: z.enum(['command', 'rule', 'fact', 'llm']),
  description: z.string(),
  examples: z.array(z.string()),
  needs_job: z.boolean(),
});

const NoteSchema = z.object({
  note_id: z.string(),
  workflow_id: z.string(),
  kind: z.enum(['rule', 'fact']),
  text: z.string(),
  created_by: z.string(),
  created_at: z.string(),
});

const OutcomeSchema = z.object({
  intent: z.enum(['command', 'rule', 'fact', 'llm']),
  executed: z.boolean(),
  needs_job: z.boolean().optional(),
  name: z.string().optional(),
  answer: z.string(),
  note: NoteSchema.optional(),
});

/** Non-LLM intent routing without a job (docs/work-items.md, "Command intents"). */
export function intentRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/command/intents',
      {
        schema: {
          querystring: z.strictObject(pageQuery),
          response: {
            200: z.object({ intents: z.array(IntentSchema), next_cursor: z.string().nullable() }),
            400: ErrorSchema,
          },
        },
      },
      async (request) => {
        const after = cursorParts(request.query.cursor, [/^[a-z/:][a-z0-9:-]{0,63}$/])?.[0];
        const limit = request.query.limit ?? DEFAULT_LIMIT;
        const rows = intentCatalog()
          .filter((intent) => after === undefined || intent.name > after)
          .slice(0, limit);
        const page = pageOf(rows, limit, (row) => [row.name]);
        return { intents: page.rows, next_cursor: page.next_cursor };
      },
    );

    app.post(
      '/v1/command/intents',
      {
        schema: {
          body: z.strictObject({
            text: z.string().trim().min(1, 'text must not be empty').max(MAX_PROMPT_CHARS),
            workflow_id: WORKFLOW_ID.optional(),
          }),
          response: { 200: OutcomeSchema, 400: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request) => executeIntent(deps, principalOf(request), request.body),
    );

    app.get(
      '/v1/command/notes',
      {
        schema: {
          querystring: z.strictObject({
            ...pageQuery,
            workflow_id: WORKFLOW_ID,
            kind: z.enum(['rule', 'fact']).optional(),
          }),
          response: {
            200: z.object({ notes: z.array(NoteSchema), next_cursor: z.string().nullable() }),
            400: ErrorSchema,
            404: ErrorSchema,
          },
        },
      },
      async (request) => {
        const after = cursorParts(request.query.cursor, [/^[1-9][0-9]{0,18}$/])?.[0];
        const workflow = await visibleWorkflowRef(deps, principalOf(request), request.query.workflow_id);
        const limit = request.query.limit ?? DEFAULT_LIMIT;
        const rows = await listWorkflowNotes(deps.pool, {
          workflowId: workflow.workflow_id,
          kind: request.query.kind,
          limit,
          after,
        });
        const page = pageOf(rows, limit, (row) => [row.note_id]);
        return { notes: page.rows, next_cursor: page.next_cursor };
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CURSOR_TIME, pageOf } from '../../db/keyset';
import { listQuestions, QUESTION_STATES, type QuestionRow } from '../../db/questions';
import { creatorScope, orgScope } from '../../jobs/visibility';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';
import { cursorParts, DEFAULT_LIMIT, pageQuery } from './list-query';

/** Cursor parts are joined by `|`, so a job id in a cursor is anything else (ids are far shorter than 100). */
const JOB_ID = /^[^|]{1,100}$/;
const SEQUENCE = /^[0-9]{1,10}$/;

// Strict, so a misspelt filter (`?sate=open`) is a 400 rather than a silently unfiltered list.
const QuestionListQuery = z.strictObject({
  state: z.enum(QUESTION_STATES).optional(),
  job_id: z.string().min(1).max(100).optional(),
  project_slug: z.string().min(1).max(64).optional(),
  ...pageQuery,
});

export const QuestionSchema = z.object({
  job_id: z.string(),
  workflow_id: z.string(),
  project_slug: z.string().nullable(),
  sequence: z.number().int().describe("the ask_user event's sequence in its job"),
  call_id: z.string().describe('answer with POST /v1/jobs/{job_id}/resume and this call_id'),
  role: z.string(),
  level_id: z.string().nullable(),
  question: z.string(),
  asked_at: z.string(),
  state: z.enum(QUESTION_STATES),
  answer: z.string().nullable(),
  answered_by: z.string().nullable().describe('the user id that answered through the API; null when not recorded'),
  answered_at: z.string().nullable(),
});

function questionView(row: QuestionRow): z.infer<typeof QuestionSchema> {
  return {
    job_id: row.job_id,
    workflow_id: row.workflow_id,
    project_slug: row.project_slug,
    sequence: row.sequence,
    call_id: row.call_id,
    role: row.role,
    level_id: row.level_id,
    question: row.question,
    asked_at: row.asked_at,
    state: row.state,
    answer: row.answer,
    answered_by: row.answered_by,
    answered_at: row.answered_at,
  };
}

/**
 * `GET /v1/questions`: the `ask_user` questions of every job the caller may see, newest first, open or after the
 * fact. A job's own open questions are also on `GET /v1/jobs/:id` (`pending`); this is the list across jobs a
 * person's inbox needs.
 */
export function questionRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/questions',
      {
        schema: {
          querystring: QuestionListQuery,
          response: {
            200: z.object({ questions: z.array(QuestionSchema), next_cursor: z.string().nullable() }),
            400: ErrorSchema,
          },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { cursor, limit = DEFAULT_LIMIT, ...filter } = request.query;
        const after = cursorParts(cursor, [CURSOR_TIME, JOB_ID, SEQUENCE]);
        const rows = await listQuestions(deps.pool, {
          ...filter,
          orgId: orgScope(principal),
          createdBy: creatorScope(principal),
          limit,
          ...(after ? { after: [after[0]!, after[1]!, Number(after[2])] as [string, string, number] } : {}),
        });
        const page = pageOf(rows, limit, (row) => [row.asked_at, row.job_id, String(row.sequence)]);
        return { questions: page.rows.map(questionView), next_cursor: page.next_cursor };
      },
    );
  };
}

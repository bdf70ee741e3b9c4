/**
 * Compile-time only: each answer the console's pages read (./schemas.ts, checked at run time) against the answer its
 * ingest API route declares (the generated clients/schema.ts). A line fails the type check when a route stops
 * answering a field a page reads, or answers it in another type: change the page with the route.
 */
import type * as z from 'zod/mini';
import type { Agrees, IngestOk } from './api-types';
import type * as P from './people-schemas';
import type * as S from './schemas';
import type { MySpend } from './pages/spend-schema';
import type { JobReservations, MyBudgets, TenantBudgets } from './admin/tenant-budget-schemas';
import type * as F from './fork/fork-schemas';

type Read<T extends z.ZodMiniType> = z.infer<T>;

export type ConsoleReadsWhatTheRoutesAnswer = [
  Agrees<IngestOk<'/v1/projects', 'get'>, Read<typeof S.ProjectList>>,
  Agrees<IngestOk<'/v1/projects', 'post'>, Read<typeof S.Project>>,
  Agrees<IngestOk<'/v1/workflows', 'get'>, Read<typeof S.WorkflowPage>>,
  Agrees<IngestOk<'/v1/workflows', 'post'>, Read<typeof S.WorkflowCreated>>,
  Agrees<IngestOk<'/v1/workflows/{id}/hide', 'post'>, Read<typeof S.Hidden>>,
  Agrees<IngestOk<'/v1/workflows/{id}', 'patch'>, Read<typeof S.Workflow>>,
  Agrees<IngestOk<'/v1/workflows/{id}/prompts', 'get'>, Read<typeof S.PromptList>>,
  Agrees<IngestOk<'/v1/workflows/{id}/prompts', 'post'>, Read<typeof S.PromptAccepted>>,
  Agrees<IngestOk<'/v1/workflows/{id}/graph', 'get'>, Read<typeof S.AgentGraph>>,
  Agrees<IngestOk<'/v1/workflows/{id}/run-graph', 'get'>, Read<typeof S.RunGraph>>,
  Agrees<IngestOk<'/v1/jobs/{id}', 'get'>, Read<typeof S.Job>>,
  Agrees<IngestOk<'/v1/jobs/{id}/files', 'get'>, Read<typeof S.JobFiles>>,
  Agrees<IngestOk<'/v1/jobs/{id}/reservations', 'get'>, Read<typeof JobReservations>>,
  Agrees<IngestOk<'/v1/me/budgets', 'get'>, Read<typeof MyBudgets>>,
  Agrees<IngestOk<'/v1/jobs/{id}/cancel', 'post'>, Read<typeof S.Cancelled>>,
  Agrees<IngestOk<'/v1/jobs/{id}/fork', 'post'>, Read<typeof F.ForkAccepted>>,
  Agrees<IngestOk<'/v1/jobs/{a}/compare/{b}', 'get'>, Read<typeof F.Comparison>>,
  Agrees<IngestOk<'/v1/approvals', 'get'>, Read<typeof S.ApprovalList>>,
  Agrees<IngestOk<'/v1/approvals/{id}/decide', 'post'>, Read<typeof S.Approval>>,
  Agrees<IngestOk<'/v1/questions', 'get'>, Read<typeof P.QuestionList>>,
  Agrees<IngestOk<'/v1/human-tasks', 'get'>, Read<typeof P.HumanTaskList>>,
  Agrees<IngestOk<'/v1/human-tasks/{id}/complete', 'post'>, Read<typeof P.HumanTask>>,
  Agrees<IngestOk<'/v1/models', 'get'>, Read<typeof S.ModelList>>,
  Agrees<IngestOk<'/v1/kb/query', 'post'>, Read<typeof S.KbResults>>,
  Agrees<IngestOk<'/v1/kb/doc/{kh_id}', 'get'>, Read<typeof S.KbDoc>>,
  Agrees<IngestOk<'/v1/atlas/domains', 'get'>, Read<typeof S.AtlasDomains>>,
  Agrees<IngestOk<'/v1/atlas/scope', 'get'>, Read<typeof S.AtlasScope>>,
  Agrees<IngestOk<'/v1/atlas/node/{kh_id}', 'get'>, Read<typeof S.AtlasNode>>,
  Agrees<IngestOk<'/v1/me/spend', 'get'>, Read<typeof MySpend>>,
  Agrees<IngestOk<'/v1/admin/budgets', 'get'>, Read<typeof TenantBudgets>>,
];

import sse from '@fastify/sse';
import type { FastifyInstance, FastifyPluginAsync, FastifyServerOptions } from 'fastify';
import { findTokenOwner } from '../db/tokens';
import { sharedRead } from '../db/shared-reads';
import { createBaseApp } from '../http/base-app';
import { named } from '../http/named-plugin';
import { instrumentHttp } from '../metrics/http';
import { INGEST_API } from './api-info';
import type { ApiDeps } from './deps';
import { principalPlugin } from './plugins/principal';
import { approvalRoutes } from './routes/approvals';
import { answerLinkRoutes } from './routes/answer-links';
import { atlasRoutes } from './routes/atlas';
import { chatRoutes } from './routes/chat';
import { designRoutes } from './routes/designs';
import { healthRoutes } from './routes/health';
import { humanTaskRoutes } from './routes/human-tasks';
import { jobStreamRoutes } from './routes/job-stream';
import { jobRoutes } from './routes/jobs';
import { jobForkRoutes } from './routes/job-fork';
import { webhookDeliveryRoutes } from './routes/webhook-deliveries';
import { webhookSubscriptionRoutes } from './routes/webhook-subscriptions';
import { jobStepRoutes } from './routes/job-steps';
import { kbRoutes } from './routes/kb';
import { modelRoutes } from './routes/models';
import { projectRoutes } from './routes/projects';
import { questionRoutes } from './routes/questions';
import { resumeRoutes } from './routes/resume';
import { scenarioRoutes } from './routes/scenarios';
import { workflowGraphRoutes } from './routes/workflow-graph';
import { workflowRoutes } from './routes/workflow-prompts';
import { capabilityRoutes } from './routes/capabilities';
import { initiativeRoutes } from './routes/initiatives';
import { intentRoutes } from './routes/intents';
import { localinfRoutes } from './routes/localinf';
import { mcpRoutes } from './routes/mcp';
import { spendRoutes } from './routes/spend';
import { statsRoutes } from './routes/stats';
import { verticalRoutes } from './routes/verticals';
import { workRoutes } from './routes/work';
import { tokenRoutes } from './routes/tokens';
import { internalLedgerRoutes } from './routes/internal-ledger';
import { internalUserRoutes } from './routes/internal-users';
import { tenantBudgetRoutes } from './routes/tenant-budgets';
import { approvalPolicyRoutes } from './routes/approval-policies';
import { mcpServerRoutes } from './routes/mcp-servers';
import { jobSlotRoutes } from './routes/job-slots';

/**
 * Builds the ingest API over its dependencies without listening, so a test can `inject` or listen
 * on port 0. The caller owns the dependencies and closes them after `app.close()`.
 */
export async function buildApp(
  deps: ApiDeps,
  options: FastifyServerOptions = {},
  extras: {
    /** Routes of other front doors served by this process (team chat's callbacks), registered by the entry point. */
    routes?: FastifyPluginAsync[];
  } = {},
): Promise<FastifyInstance> {
  const app = createBaseApp(INGEST_API, options);
  instrumentHttp(app, 'api');
  await app.register(sse, { heartbeatInterval: deps.heartbeatMs });
  await app.register(principalPlugin, {
    // Concurrent requests of one token (the console's, which acts for every signed-in user; a client opening many
    // streams) share its lookup: as fresh as a lookup of their own (db/shared-reads.ts), one query instead of many.
    findOwner: (token) => sharedRead(deps.pool, `token-owner:${token}`, () => findTokenOwner(deps.pool, token)),
    queue: deps.queue,
    rateLimits: deps.rateLimits,
  });
  await app.register(healthRoutes);
  const routeFactories = [
    ...[
      chatRoutes,
      projectRoutes,
      jobRoutes,
      jobForkRoutes,
      jobStepRoutes,
      resumeRoutes,
      approvalRoutes,
      jobStreamRoutes,
      modelRoutes,
    ],
    ...[workflowRoutes, workflowGraphRoutes, kbRoutes, atlasRoutes, designRoutes, humanTaskRoutes, tokenRoutes],
    ...[scenarioRoutes, questionRoutes, spendRoutes, tenantBudgetRoutes, approvalPolicyRoutes],
    ...[webhookDeliveryRoutes, webhookSubscriptionRoutes],
    jobSlotRoutes,
    // The answer-by-link page (docs/answer-links.md): HTML, authorised by the signed token in its URL.
    answerLinkRoutes,
    ...[internalUserRoutes, internalLedgerRoutes],
    // Keel as an MCP server over Streamable HTTP at /mcp, and the MCP servers projects use (docs/mcp.md).
    ...[mcpRoutes, mcpServerRoutes],
    // Capabilities, verticals, work, initiatives, intents, stats and the retired localinf paths (issue 17).
    ...[capabilityRoutes, verticalRoutes, workRoutes, initiativeRoutes, intentRoutes, statsRoutes],
  ];
  // Each under its factory's name (`chatRoutes`), which is what fastify shows for it (http/named-plugin.ts).
  for (const routes of routeFactories) await app.register(named(routes.name, routes(deps)));
  await app.register(localinfRoutes);
  for (const routes of extras.routes ?? []) await app.register(routes);
  return app;
}

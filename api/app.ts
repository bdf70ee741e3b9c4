import sse from '@fastify/sse';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { findTokenOwner } from '../db/tokens';
import { createBaseApp } from './base-app';
import type { ApiDeps } from './deps';
import { principalPlugin } from './plugins/principal';
import { approvalRoutes } from './routes/approvals';
import { chatRoutes } from './routes/chat';
import { healthRoutes } from './routes/health';
import { jobStreamRoutes } from './routes/job-stream';
import { jobRoutes } from './routes/jobs';
import { modelRoutes } from './routes/models';
import { projectRoutes } from './routes/projects';
import { resumeRoutes } from './routes/resume';
import { workflowGraphRoutes } from './routes/workflow-graph';
import { workflowRoutes } from './routes/workflow-prompts';

/**
 * Builds the ingest API over its dependencies without listening, so a test can `inject` or listen
 * on port 0. The caller owns the dependencies and closes them after `app.close()`.
 */
export async function buildApp(deps: ApiDeps, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = createBaseApp(options);
  await app.register(sse, { heartbeatInterval: deps.heartbeatMs });
  await app.register(principalPlugin, {
    findOwner: (token) => findTokenOwner(deps.pool, token),
    queue: deps.queue,
    rateLimits: deps.rateLimits,
  });
  await app.register(healthRoutes);
  await app.register(chatRoutes(deps));
  await app.register(projectRoutes(deps));
  await app.register(jobRoutes(deps));
  await app.register(resumeRoutes(deps));
  await app.register(approvalRoutes(deps));
  await app.register(jobStreamRoutes(deps));
  await app.register(modelRoutes(deps));
  await app.register(workflowRoutes(deps));
  await app.register(workflowGraphRoutes(deps));
  return app;
}

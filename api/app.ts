import sse from '@fastify/sse';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ApiDeps } from './deps';
import { handleError } from './errors';
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
import { workflowRoutes } from './routes/workflows';

/** Largest request body accepted; prompts are capped well below it. */
const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Builds the ingest API over its dependencies without listening, so a test can `inject` or listen
 * on port 0. The caller owns the dependencies and closes them after `app.close()`.
 */
export async function buildApp(deps: ApiDeps, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ bodyLimit: BODY_LIMIT_BYTES, ...options }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every body is JSON; refusing text/plain up front gives a 415 instead of a confusing validation error.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: { code: 'not_found', message: `no route ${request.method} ${request.url}` } }),
  );
  await app.register(sse, { heartbeatInterval: deps.heartbeatMs });
  await app.register(principalPlugin, { pool: deps.pool, queue: deps.queue, rateLimits: deps.rateLimits });
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

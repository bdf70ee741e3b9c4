import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { IdAllocator } from '../db/ids';
import type { TokenOwner } from '../db/tokens';
import type { QueueStore } from '../queue/queue-store';
import { createBaseApp, noSuchRoute } from '../http/base-app';
import { INGEST_API } from './api-info';
import type { RateLimits } from '../jobs/admit';
import { principalPlugin } from './plugins/principal';
import { healthRoutes } from './routes/health';
import { queueThreads } from './prompt-threads';
import { workflowPromptRoutes } from './routes/workflow-prompts';
import { workflowReadRoutes } from './routes/workflows';
import { queueWorkflows } from './workflow-directory';
import { named } from '../http/named-plugin';

export interface ApiWithoutDatabaseDeps {
  queue: QueueStore;
  /** The cache-counter allocator (no database: the spec's only case for it). */
  ids: IdAllocator;
  /** The one accepted token, an admin of org `dev`: there is no token table without a database. */
  devToken: string;
  rateLimits: RateLimits;
}

/**
 * The development API when Keel runs without any database: workflows and their prompt threads in the queue store,
 * every other /v1 endpoint a 503 that says what is missing.
 */
export async function buildAppWithoutDatabase(
  deps: ApiWithoutDatabaseDeps,
  options: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  const app = createBaseApp(INGEST_API, options, (request, reply) =>
    request.url.startsWith('/v1/')
      ? reply.code(503).send({
          error: {
            code: 'database_required',
            message: `${request.method} ${request.url.split('?')[0]} needs a database: set POSTGRES_DSN or leave the embedded database on (KEEL_EMBEDDED_DB)`,
          },
        })
      : noSuchRoute(request, reply),
  );
  const dev: TokenOwner = { token_id: 'dev', user_id: 'dev', org_id: 'dev', is_admin: true };
  await app.register(principalPlugin, {
    findOwner: (token) => Promise.resolve(token === deps.devToken ? dev : undefined),
    queue: deps.queue,
    rateLimits: deps.rateLimits,
  });
  await app.register(healthRoutes);
  const workflows = queueWorkflows(deps.queue);
  // Named for fastify's `printPlugins()` and start-up errors (http/named-plugin.ts).
  await app.register(named('workflowReadRoutes', workflowReadRoutes(workflows)));
  const threads = queueThreads({ queue: deps.queue, ids: deps.ids, workflows });
  const admission = { queue: deps.queue, rateLimits: deps.rateLimits };
  await app.register(named('workflowPromptRoutes', workflowPromptRoutes(workflows, threads, admission)));
  return app;
}

import fs from 'node:fs';
import { webhookSettings } from '../webhooks/config';
import { identityServicePeople } from '../approvals/escalation-people';
import { mcpClientSettings } from '../mcp/config';
import { resolveAnswerLinks } from '../answer-links/config';
import { chatWebApiFromEnv } from '../chat-relay/chat-app';
import { workspaceRoot } from '../config/workspace-root';
import { createPoolFromEnv } from '../db/pool';
import { createQueueStore } from '../queue/create-queue-store';
import { openModels } from '../routing/open-models';
import { createSecretStore } from '../secrets/store';
import { jobTaskQueue, temporalSettings } from '../temporal/config';
import { connectClient, connectWorker, ensureSearchAttributes } from '../temporal/connection';
import { ensureConnectorSchedules } from '../temporal/connector-schedules';
import { ensureBlobGcSchedule } from '../temporal/blob-gc-schedule';
import { blobGcSettings, blobStoreSettings } from '../snapshots/config';
import { openBlobStore } from '../snapshots/open-blob-store';
import { openAll } from './closers';
import { openProcessHub } from './process-hub';
import type { WorkerConfig } from './worker-config';

/**
 * What a worker alone runs on, opened from its parsed config: the activities' dependencies and a worker connection
 * to Temporal, with the search attributes and connector schedules in place; `close()` closes all of it.
 */
export function openResources(config: WorkerConfig, warn: (line: string) => void = console.warn) {
  const { worker: env } = config;
  return openAll(async (closers) => {
    const pool = closers.add(createPoolFromEnv(env), (p) => p.end());
    const queue = closers.add(
      await createQueueStore({ redisUrl: env.REDIS_URL, instanceId: env.KEEL_INSTANCE_ID }),
      (q) => q.close(),
    );
    const secrets = createSecretStore(config.secrets);
    const models = closers.add(await openModels(config.models, queue, { serveDemo: true, secrets }), (m) => m.close());
    // kb_search reads the knowledge hub; a hub that cannot serve only makes the tool say so.
    const kb = await openProcessHub(
      closers,
      {
        config: config.kb,
        pool,
        schema: env.POSTGRES_SCHEMA,
        dataDir: env.DATA_DIR,
        postgresSsl: env.POSTGRES_SSL,
      },
      warn,
    );
    const settings = temporalSettings(env, env.TEMPORAL_ADDRESS!, (p) => fs.readFileSync(p));
    // Workflows upsert KeelStatus, so the attributes must exist before the first job runs here.
    const registrar = await connectClient(settings);
    const warning = await ensureSearchAttributes(registrar.client, env.TEMPORAL_NAMESPACE)
      .then(async (result) => {
        // One schedule per connector, created or updated from this worker's configuration (paused when disabled).
        await ensureConnectorSchedules(registrar.client, {
          taskQueue: jobTaskQueue(env),
          config: config.connectors.shared,
          retry: { say: warn },
        });
        // The workspace blob collection (docs/workspace-snapshots.md), paused when WORKSPACE_GC_ENABLED=false.
        await ensureBlobGcSchedule(registrar.client, {
          taskQueue: jobTaskQueue(env),
          settings: blobGcSettings(env),
          retry: { say: warn },
        });
        return result;
      })
      .finally(() => registrar.close());
    if (warning) warn(`warning: ${warning}`);
    const connection = closers.add(await connectWorker(settings), (c) => c.close());
    // Default base: the API's default address; set ANSWER_LINK_BASE_URL to where people reach the API.
    const answerLinks = await resolveAnswerLinks(env, secrets, { defaultBaseUrl: 'http://127.0.0.1:3000' });
    for (const w of answerLinks.warnings) warn(`warning: ${w.message}`);
    return {
      connection,
      deps: {
        pool,
        queue,
        models: models.router,
        workspaceRoot: workspaceRoot(env),
        blobs: openBlobStore(blobStoreSettings(env, workspaceRoot(env)), secrets),
        chat: chatWebApiFromEnv(env, secrets),
        kb,
        connectors: config.connectors,
        products: config.products,
        secrets,
        liveOutput: config.models.liveOutput,
        webhooks: webhookSettings(env),
        mcp: mcpClientSettings(env),
        answerLinks: answerLinks.settings,
        people: env.IDENTITY_URL
          ? identityServicePeople({
              identityUrl: env.IDENTITY_URL,
              internalToken: async () =>
                env.IDENTITY_INTERNAL_TOKEN ??
                secrets.get(env.IDENTITY_INTERNAL_TOKEN_SECRET_ID ?? 'IDENTITY_INTERNAL_TOKEN'),
            })
          : undefined,
      },
    };
  });
}

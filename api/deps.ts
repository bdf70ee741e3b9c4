import type { SecretStore } from '../secrets/store';
import type { AnswerLinkSettings } from '../answer-links/config';
import { chatAppFromEnv, type ChatApp } from '../chat-relay/chat-app';
import { createIdAllocator } from '../db/ids';
import type { JobsDeps } from '../jobs/deps';
import type { KnowledgeHub } from '../kb/hub';
import type { ModelListing } from '../routing/router';
import { jobTaskQueue } from '../temporal/config';
import type { ApiEnv } from './config';
import type { BudgetSource } from '../jobs/admit';
import { identityServiceBudget, sharedDatabaseBudget } from '../jobs/budget-sources';
import { identityTables, ingestTables } from '../db/qualified-tables';
import { workspaceRoot } from '../config/workspace-root';
import type { BlobStore } from '../snapshots/blob-store';
import { blobStoreSettings } from '../snapshots/config';
import { openBlobStore } from '../snapshots/open-blob-store';
import { schedulingFromEnv } from '../jobs/scheduling';

/** Everything the ingest API needs, built by the entry point (or a test) and handed to buildApp. */
export interface ApiDeps extends JobsDeps {
  /** What GET /v1/models lists. */
  models: { list(): Promise<ModelListing[]> };
  /** Where workers write job files (shared storage when API and workers run apart). */
  workspaceRoot: string;
  /** Where workspace snapshots keep file contents (files at a level run); absent → `.blobs` in workspaceRoot. */
  blobs?: BlobStore;
  /** SSE heartbeat comment interval. */
  heartbeatMs: number;
  /** How often a stream re-reads the database in case a live message was lost. */
  streamPollMs: number;
  /** The knowledge hub behind /v1/kb/* and /v1/atlas/*; without one they answer 503 kb_unavailable. */
  kb?: KnowledgeHub;
  /** The team-chat app behind /v1/chatapp/*; without one (or without its signing secret) every request there is 401. */
  chatApp?: ChatApp;
  /**
   * The token the identity service presents on this API's internal endpoints (IDENTITY_INTERNAL_TOKEN); without one
   * they are not served.
   */
  internalToken?: string;
  /** WEBHOOK_ALLOW_HOSTS: hosts a submission's webhook may name although they are plain http or private. */
  webhookAllowHosts?: readonly string[];
  /** Checks the answer links the workers mint (GET/POST /answer/:token); absent → those pages answer 404. */
  answerLinks?: AnswerLinkSettings;
}

/** The API's dependencies as its environment configures them, over resources the entry point opened. */
export function apiDepsFromEnv(
  env: ApiEnv,
  resources: Pick<ApiDeps, 'pool' | 'queue' | 'temporal' | 'models' | 'kb' | 'budget'> & { secrets: SecretStore },
): ApiDeps {
  return {
    ...resources,
    budget: resources.budget ?? budgetFromEnv(env, resources.pool),
    ids: createIdAllocator({ pool: resources.pool, queue: resources.queue }),
    taskQueue: jobTaskQueue(env),
    rateLimits: { userPerMinute: env.RATE_LIMIT_USER_PER_MINUTE, orgPerMinute: env.RATE_LIMIT_ORG_PER_MINUTE },
    workspaceRoot: workspaceRoot(env),
    blobs: openBlobStore(blobStoreSettings(env, workspaceRoot(env)), resources.secrets),
    heartbeatMs: env.SSE_HEARTBEAT_MS,
    streamPollMs: env.STREAM_POLL_MS,
    jobBudgetUsd: env.JOB_BUDGET_USD,
    jobBudgetMaxUsd: env.JOB_BUDGET_MAX_USD,
    levelHeartbeatMs: env.LEVEL_HEARTBEAT_MS,
    scheduling: schedulingFromEnv(env),
    temporalAnswerMs: env.TEMPORAL_DOWN_ANSWER_MS,
    chatApp: chatAppFromEnv(env, resources.secrets),
    internalToken: env.IDENTITY_INTERNAL_TOKEN,
    webhookAllowHosts: env.WEBHOOK_ALLOW_HOSTS,
  };
}

/**
 * Where submissions read budgets (docs/admission.md): the identity service's internal endpoint when IDENTITY_URL is
 * set (separate databases), its tables when IDENTITY_SCHEMA names them in this database, else nowhere (no budgets).
 */
export function budgetFromEnv(env: ApiEnv, pool: ApiDeps['pool']): BudgetSource | undefined {
  const ledger = ingestTables(env.POSTGRES_SCHEMA);
  if (env.IDENTITY_URL && env.IDENTITY_INTERNAL_TOKEN) {
    return identityServiceBudget({
      identityUrl: env.IDENTITY_URL,
      internalToken: env.IDENTITY_INTERNAL_TOKEN,
      pool,
      ledger,
    });
  }
  if (env.IDENTITY_SCHEMA) {
    return sharedDatabaseBudget({
      pool,
      lookup: {
        identity: identityTables(env.IDENTITY_SCHEMA),
        ledger,
        defaultBudgetCents: Math.round(env.DEFAULT_BUDGET_USD * 100),
      },
    });
  }
  return undefined;
}

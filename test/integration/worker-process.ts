import fs from 'node:fs/promises';
import path from 'node:path';
import type { Catalog } from '../../routing/catalog/types';
import { testPostgresDsn, testRedisUrl } from './env';
import { startKeelProcess, type KeelProcess } from './fault-drill-stack';
import type { Infrastructure, KeelUnderTest } from './harness';

/**
 * One keyed provider (`alpha`, key `sk-alpha`) on the chat_compat wire at `baseUrl`: the demo model, or a proxy in
 * front of it that holds or pauses a level, so a drill decides where a kill lands.
 */
export function alphaCatalog(baseUrl: string): Catalog {
  return {
    providers: { alpha: { wire: 'chat_compat', base_url: baseUrl, auth: { env: 'ALPHA_KEY' } } },
    models: [
      {
        provider: 'alpha',
        model: 'alpha-large',
        wire: 'chat_compat',
        features: ['tool_use', 'streaming'],
        cost_tier: 'cheap',
        pricing_per_1k: { input: 0.001, output: 0.002 },
        context_tokens: 200_000,
        max_output_tokens: 8192,
        preference: 1,
      },
    ],
  };
}

/**
 * A worker as a process of its own (dist/stack/worker-main.js, as in production), on the test's schema, task queue,
 * workspaces and the run's shared dev server, so a drill can SIGKILL it. Its catalog and controls are written into
 * `dir` (JSON is YAML: the worker reads them from files, as in production). `instanceId` must be the one of the
 * test's queue store when the test reads live channels (they are under the instance's key prefix).
 */
export async function startWorkerProcess(options: {
  infra: Infrastructure;
  keel: KeelUnderTest;
  dir: string;
  catalog: Catalog;
  controls: unknown;
  instanceId: string;
  env?: Record<string, string>;
}): Promise<KeelProcess> {
  const { infra, keel, dir } = options;
  // The run's shared dev server (the global set-up names it): the worker process dials it too.
  const temporalAddress = process.env.KEEL_TEST_TEMPORAL_ADDRESS;
  if (!temporalAddress) throw new Error('run through jest --selectProjects integration (its global set-up)');
  await fs.writeFile(path.join(dir, 'catalog.yaml'), JSON.stringify(options.catalog));
  await fs.writeFile(path.join(dir, 'controls.yaml'), JSON.stringify(options.controls));
  return startKeelProcess('worker-main', {
    POSTGRES_DSN: testPostgresDsn,
    POSTGRES_SCHEMA: infra.db.schema,
    REDIS_URL: testRedisUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: infra.temporal.namespace ?? 'default',
    KEEL_INSTANCE_ID: options.instanceId,
    JOB_QUEUE_KEY: keel.taskQueue,
    WORKSPACE_DIR: keel.workspaceRoot,
    DATA_DIR: path.join(dir, 'data'),
    WORKFLOW_BUNDLE_PATH: path.resolve(__dirname, '../../dist/workflow-bundle.js'),
    MODEL_CATALOG_PATH: path.join(dir, 'catalog.yaml'),
    TEAM_CONTROLS_PATH: path.join(dir, 'controls.yaml'),
    ALPHA_KEY: 'sk-alpha',
    WORKER_SHUTDOWN_GRACE: '1 second',
    LOG_LEVEL: 'fatal',
    ...options.env,
  });
}

import type { QueueStore } from '../queue/queue-store';
import { isConfigured, loadCatalog, loadTeamControls, resolveProviderKey } from './catalog/load';
import type { Catalog, TeamControls } from './catalog/types';
import { modelFilePaths, type ModelEnv } from './config';
import { DEMO_PROVIDER } from './demo-endpoint';
import { startDemoModelServer } from './demo-model/server';
import { createQuotaLedger } from './ledger';
import { createModelRouter, type ModelRouter } from './router';

/**
 * Builds the router over a loaded catalog: resolves each provider's credentials from the environment
 * (env wins over the secrets store) and marks which providers are configured.
 */
export function buildRouter(
  catalog: Catalog,
  controls: TeamControls,
  processEnv: NodeJS.ProcessEnv,
  queue: QueueStore,
  log: (line: string) => void,
): ModelRouter {
  const keys: Record<string, string | undefined> = {};
  const configured = new Set<string>();
  for (const [name, entry] of Object.entries(catalog.providers)) {
    keys[name] = resolveProviderKey(entry, processEnv).key;
    if (isConfigured(entry, processEnv)) configured.add(name);
  }
  return createModelRouter({
    catalog,
    controls,
    configured,
    keys,
    ledger: createQuotaLedger(queue, log),
    flags: queue,
    log,
  });
}

/** Points the catalog's `demo` provider at a running offline demo model. */
export function withDemoAt(catalog: Catalog, baseUrl: string): Catalog {
  const demo = catalog.providers[DEMO_PROVIDER];
  if (!demo) return catalog;
  return { ...catalog, providers: { ...catalog.providers, [DEMO_PROVIDER]: { ...demo, base_url: baseUrl } } };
}

/**
 * Loads the catalog and team controls (a missing or invalid file stops start-up) and builds the router.
 * With `serveDemo` (workers), this process also serves the offline demo model on loopback.
 */
export async function openModels(
  env: ModelEnv,
  processEnv: NodeJS.ProcessEnv,
  queue: QueueStore,
  options: { serveDemo: boolean; log?: (line: string) => void },
): Promise<{
  router: ModelRouter;
  catalog: Catalog;
  /** Providers with resolvable credentials, the offline demo model aside. */
  configured: string[];
  paths: { catalog: string; controls: string };
  close(): Promise<void>;
}> {
  const log = options.log ?? ((line: string) => console.warn(`[routing] ${line}`));
  const paths = modelFilePaths(env);
  const loaded = await loadCatalog(paths.catalog);
  const controls = await loadTeamControls(paths.controls);
  const demo = options.serveDemo ? await startDemoModelServer({ port: env.DEMO_MODEL_PORT }) : undefined;
  const catalog = demo ? withDemoAt(loaded, demo.baseUrl) : loaded;
  const configured = Object.entries(catalog.providers)
    .filter(([name, entry]) => name !== DEMO_PROVIDER && entry.auth && isConfigured(entry, processEnv))
    .map(([name]) => name);
  return {
    router: buildRouter(catalog, controls, processEnv, queue, log),
    catalog,
    configured,
    paths,
    close: async () => demo?.close(),
  };
}

import type { QueueStore } from '../queue/queue-store';
import { isConfigured, resolveProviderKey } from './catalog/load';
import type { Catalog, TeamControls } from './catalog/types';
import type { ModelsConfig } from './config';
import { DEMO_PROVIDER } from './demo-endpoint';
import { startDemoModelServer } from './demo-model/server';
import { createQuotaLedger } from './ledger';
import { createModelRouter, type ModelRouter } from './router';

/**
 * Builds the router over a loaded catalog: resolves each provider's key from `credentials` (the variables its
 * `auth.env` names; env wins over the secrets store) and marks which providers are configured.
 */
export function buildRouter(
  catalog: Catalog,
  controls: TeamControls,
  credentials: Readonly<Record<string, string | undefined>>,
  queue: QueueStore,
  log: (line: string) => void,
): ModelRouter {
  const keys: Record<string, string | undefined> = {};
  const configured = new Set<string>();
  for (const [name, entry] of Object.entries(catalog.providers)) {
    keys[name] = resolveProviderKey(entry, credentials).key;
    if (isConfigured(entry, credentials)) configured.add(name);
  }
  return createModelRouter({
    catalog,
    controls,
    configured,
    keys,
    ledger: createQuotaLedger(queue, log),
    // Like the ledger (which reads the flag), a provider's unfunded flag is an optimisation: with the store down,
    // no provider is skipped.
    flags: { setFlag: (key, ttlMs) => queue.setFlag(key, ttlMs).catch(() => undefined) },
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
 * Builds the router over the catalog and keys the process's config holds. With `serveDemo` (workers), this process
 * also serves the offline demo model on loopback.
 */
export async function openModels(
  config: ModelsConfig,
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
  const demo = options.serveDemo ? await startDemoModelServer({ port: config.demoModelPort }) : undefined;
  const catalog = demo ? withDemoAt(config.catalog, demo.baseUrl) : config.catalog;
  const configured = Object.entries(catalog.providers)
    .filter(([name, entry]) => name !== DEMO_PROVIDER && entry.auth && isConfigured(entry, config.credentials))
    .map(([name]) => name);
  return {
    router: buildRouter(catalog, config.controls, config.credentials, queue, log),
    catalog,
    configured,
    paths: config.paths,
    close: async () => demo?.close(),
  };
}

import type { QueueStore } from '../queue/queue-store';
import { noSecrets, type SecretStore } from '../secrets/store';
import { logger } from '../telemetry/logger';
import { isConfigured, resolveProviderKey } from './catalog/load';
import type { Catalog, TeamControls } from './catalog/types';
import type { ModelsConfig } from './config';
import { DEMO_PROVIDER } from './demo-endpoint';
import { startDemoModelServer } from './demo-model/server';
import { createQuotaLedger } from './ledger';
import { createModelRouter, type ModelRouter } from './router';

/**
 * Builds the router over a loaded catalog: which providers are configured is decided now (a provider keyed later
 * joins at the next start), while each call looks its key up again, from `credentials` (the variables `auth.env`
 * names, which win) or the secrets store (`auth.secret_id`), so a rotated secret is used without a restart.
 */
export async function buildRouter(
  catalog: Catalog,
  controls: TeamControls,
  credentials: Readonly<Record<string, string | undefined>>,
  queue: QueueStore,
  log: (line: string) => void,
  secrets: SecretStore = noSecrets,
): Promise<ModelRouter> {
  const configured = new Set<string>();
  for (const [name, entry] of Object.entries(catalog.providers)) {
    if (await isConfigured(entry, credentials, secrets)) configured.add(name);
  }
  return createModelRouter({
    catalog,
    controls,
    configured,
    async keyOf(provider) {
      const entry = catalog.providers[provider];
      return entry && (await resolveProviderKey(entry, credentials, secrets)).key;
    },
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
  options: { serveDemo: boolean; secrets: SecretStore; log?: (line: string) => void },
): Promise<{
  router: ModelRouter;
  catalog: Catalog;
  /** Providers with resolvable credentials, the offline demo model aside. */
  configured: string[];
  paths: { catalog: string; controls: string };
  close(): Promise<void>;
}> {
  const routingLog = logger('routing');
  const log = options.log ?? ((line: string) => routingLog.warn(line));
  const demo = options.serveDemo
    ? await startDemoModelServer({ port: config.demoModelPort, chunkMs: config.demoChunkMs })
    : undefined;
  const catalog = demo ? withDemoAt(config.catalog, demo.baseUrl) : config.catalog;
  const router = await buildRouter(catalog, config.controls, config.credentials, queue, log, options.secrets);
  const configured: string[] = [];
  for (const [name, entry] of Object.entries(catalog.providers)) {
    if (name !== DEMO_PROVIDER && entry.auth && (await isConfigured(entry, config.credentials, options.secrets))) {
      configured.push(name);
    }
  }
  return {
    router,
    catalog,
    configured,
    paths: config.paths,
    close: async () => demo?.close(),
  };
}

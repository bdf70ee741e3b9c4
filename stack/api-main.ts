// Entry point: the ingest API alone (production). `npm start` runs it inside the all-in-one stack instead.
import { buildApp } from '../api/app';
import { apiDepsFromEnv } from '../api/deps';
import { chatAppRoutes } from '../chat/routes';
import { loadConfig } from './api-config';
import { openResources } from './api-resources';
import { runMain, serveUntilSignal } from './entry-point';
import { logConfigWarnings } from '../secrets/env-or-store';
import { setLogLevel } from '../telemetry/logger';

async function main(): Promise<void> {
  const config = await loadConfig(process.env);
  const { api: env } = config;
  // Lines logged outside a request (Redis errors, cancel flags) follow the same level as the app's.
  setLogLevel(env.LOG_LEVEL);
  await serveUntilSignal(await openResources(config), async (resources) => {
    const deps = apiDepsFromEnv(env, resources);
    const app = await buildApp(
      deps,
      {
        logger: { level: env.LOG_LEVEL },
      },
      {
        routes: [chatAppRoutes(deps)],
      },
    );
    logConfigWarnings(app.log, config.warnings);
    await app.listen({ host: env.API_HOST, port: env.API_PORT });
    return app;
  });
}

runMain('keel api', main);

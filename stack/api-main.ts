// Entry point: the ingest API alone (production). `npm start` runs it inside the all-in-one stack instead.
import { buildApp } from '../api/app';
import { apiDepsFromEnv } from '../api/deps';
import { chatAppRoutes } from '../chat/routes';
import { loadConfig } from './api-config';
import { openResources } from './api-resources';
import { runMain, serveUntilSignal } from './entry-point';
import { logConfigWarnings } from '../secrets/env-or-store';
import { setLogLevel } from '../telemetry/logger';
import { resolveAnswerLinks } from '../answer-links/config';

async function main(): Promise<void> {
  const config = await loadConfig(process.env);
  const { api: env } = config;
  // Lines logged outside a request (Redis errors, cancel flags) follow the same level as the app's.
  setLogLevel(env.LOG_LEVEL);
  await serveUntilSignal(await openResources(config), async (resources) => {
    // The answer-link secret is a deployment secret read at start, like the internal token (docs/answer-links.md).
    const answerLinks = await resolveAnswerLinks(env, resources.secrets, {
      defaultBaseUrl: `http://127.0.0.1:${env.API_PORT}`,
    });
    const deps = { ...apiDepsFromEnv(env, resources), answerLinks: answerLinks.settings };
    const app = await buildApp(
      deps,
      {
        logger: { level: env.LOG_LEVEL },
      },
      {
        routes: [chatAppRoutes(deps)],
      },
    );
    logConfigWarnings(app.log, [...config.warnings, ...answerLinks.warnings]);
    await app.listen({ host: env.API_HOST, port: env.API_PORT });
    return app;
  });
}

runMain('keel api', main);

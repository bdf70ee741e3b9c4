import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ConsoleConfig } from '../config';
import { preflight, SessionUserSchema } from '../preflight';
import type { Upstream } from '../upstream';

/** What the sign-in page offers and where the Temporal UI is: public, read before anyone signs in. */
export function consoleSettings(config: ConsoleConfig) {
  return {
    passwordLogin: config.PUBLIC_ENABLE_PASSWORD_LOGIN,
    oidcProviders: config.OIDC_PROVIDER_ID
      ? [{ id: config.OIDC_PROVIDER_ID, name: config.OIDC_PROVIDER_NAME ?? config.OIDC_PROVIDER_ID }]
      : [],
    temporalUiUrl: config.TEMPORAL_UI_URL ?? null,
    temporalNamespace: config.TEMPORAL_NAMESPACE,
  };
}

const ConsoleSettingsSchema = z.object({
  passwordLogin: z.boolean(),
  oidcProviders: z.array(z.object({ id: z.string(), name: z.string() })),
  temporalUiUrl: z.string().nullable(),
  temporalNamespace: z.string(),
});

/** `GET /healthz` (no upstream touched), `GET /api/console/config`, and `GET /api/session` (the preflight's user). */
export function consoleRoutes(config: ConsoleConfig, identity: Upstream): FastifyPluginAsync {
  const settings = consoleSettings(config);
  return async (app) => {
    app.get('/healthz', { schema: { response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => ({
      status: 'ok' as const,
    }));
    app.get(
      '/api/console/config',
      { schema: { response: { 200: ConsoleSettingsSchema } } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-cache');
        return settings;
      },
    );
    app.get(
      '/api/session',
      { schema: { response: { 200: z.object({ user: SessionUserSchema }) } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return { user: await preflight(identity, request, reply) };
      },
    );
  };
}

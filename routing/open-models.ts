import { configuredProvider, type ModelEnv } from './config';
import { demoEndpoint } from './demo-endpoint';
import { startDemoModelServer } from './demo-model/server';
import { createModelGateway, type ModelGateway } from './gateway';

/**
 * The model gateway a worker process uses: the configured endpoint, or — with none configured — the
 * offline demo model, served by this process on loopback and reached over the same chat_compat wire.
 */
export async function openModels(
  env: ModelEnv,
): Promise<{ gateway: ModelGateway; demo: boolean; close(): Promise<void> }> {
  const configured = configuredProvider(env);
  if (configured) return { gateway: createModelGateway(configured), demo: false, close: async () => undefined };
  const server = await startDemoModelServer({ host: '127.0.0.1', port: env.DEMO_MODEL_PORT });
  return { gateway: createModelGateway(demoEndpoint(server.baseUrl)), demo: true, close: () => server.close() };
}

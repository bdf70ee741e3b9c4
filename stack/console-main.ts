// Entry point: the console alone (`npm run start:console`). `npm start` runs it inside the all-in-one stack.
import { buildConsoleApp } from '../console/server/app';
import { loadConfig } from '../console/server/config';
import { logConfigWarnings } from '../secrets/env-or-store';
import { onStopSignals, runMain } from './entry-point';

async function main(): Promise<void> {
  const { config, warnings } = await loadConfig();
  const app = await buildConsoleApp(config, { logger: { level: config.LOG_LEVEL } });
  logConfigWarnings(app.log, warnings);
  const url = await app.listen({ host: config.CONSOLE_HOST, port: config.CONSOLE_PORT });
  console.log(`Keel console at ${url} (identity ${config.IDENTITY_URL}, ingest API ${config.INGEST_API_URL})`);
  onStopSignals(() => void app.close());
}

runMain('keel console', main);

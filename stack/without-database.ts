import fs from 'node:fs';
import { buildAppWithoutDatabase } from '../api/app-without-database';
import { createCacheCounterAllocator } from '../db/ids';
import { generateToken } from '../db/tokens';
import { createQueueStore } from '../queue/create-queue-store';
import type { StackEnv } from './config';
import { onStopSignals } from './entry-point';
import { devTokenPath, readDevToken } from './state-file';

/**
 * `npm start` with KEEL_EMBEDDED_DB=off and no POSTGRES_DSN: only the API, over the queue store (Redis when REDIS_URL
 * is set, else in-process), serving the workflow resources. Jobs need the database, so no worker or Temporal starts.
 */
export async function runWithoutDatabase(env: StackEnv, dataDir: string): Promise<void> {
  const queue = await createQueueStore({ redisUrl: env.REDIS_URL, instanceId: env.KEEL_INSTANCE_ID });
  const devToken = env.KEEL_DEV_TOKEN ?? readDevToken(dataDir) ?? generateToken();
  if (!env.KEEL_DEV_TOKEN) fs.writeFileSync(devTokenPath(dataDir), `${devToken}\n`, { mode: 0o600 });
  const app = await buildAppWithoutDatabase(
    {
      queue,
      ids: createCacheCounterAllocator(queue),
      devToken,
      rateLimits: { userPerMinute: env.RATE_LIMIT_USER_PER_MINUTE, orgPerMinute: env.RATE_LIMIT_ORG_PER_MINUTE },
    },
    { logger: { level: env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL } },
  );
  const apiUrl = await app.listen({ host: env.API_HOST, port: env.API_PORT });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say('Keel is running without a database (KEEL_EMBEDDED_DB=off, no POSTGRES_DSN).');
  say(`  API          ${apiUrl}   (workflows and prompts only; other endpoints answer 503 database_required)`);
  say(`  API token    ${devToken}   (admin user "dev"; also in ${devTokenPath(dataDir)})`);
  say(`  Queue store  ${env.REDIS_URL ? 'Redis (REDIS_URL)' : 'in-process: workflows are gone when Keel stops'}`);
  say('Stop: Ctrl-C');
  await new Promise<void>((resolve) => onStopSignals(() => resolve()));
  await app.close();
  await queue.close();
}

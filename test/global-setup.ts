import path from 'node:path';
import { detectKbIndexKind } from './integration/kb-index-database';
import { startSharedServices, type SharedServicesHolder } from './integration/shared-services';

/**
 * Once per jest run, before any test file:
 * - where the knowledge index of the hub-owning suites lives (test/integration/kb-index-database.ts): the test
 *   PostgreSQL when it offers pgvector, an embedded PGlite otherwise. The same tests run either way.
 * - the run's one Temporal dev server and workflow bundle (test/integration/shared-services.ts), stopped by
 *   test/global-teardown.ts.
 * - workflow threads without the SDK's per-promise stack traces and deadlock watchdog
 *   (test/workflow-diagnostics-off.js), through NODE_OPTIONS, which the jest workers and every process a test spawns
 *   inherit.
 */
export default async function globalSetup(): Promise<void> {
  const preload = path.join(__dirname, 'workflow-diagnostics-off.js');
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require "${preload}"`.trim();
  const starting = startSharedServices();
  starting.catch(() => undefined); // awaited below, after the index choice that runs meanwhile
  await chooseKbIndex();
  // jest runs the teardown in this same process: it finds the server here.
  (globalThis as SharedServicesHolder).keelSharedServices = await starting;
}

async function chooseKbIndex(): Promise<void> {
  if (!process.env.TEST_KB_INDEX) {
    try {
      process.env.TEST_KB_INDEX = await detectKbIndexKind();
    } catch (err) {
      // Unit tests run without PostgreSQL; the suites that need it fail on their own, saying why.
      console.log(`\n[test set-up] test PostgreSQL unreachable (${(err as Error).message}): no knowledge index chosen`);
      return;
    }
  }
  const where =
    process.env.TEST_KB_INDEX === 'postgres'
      ? 'the test PostgreSQL (pgvector)'
      : 'an embedded PGlite per hub suite (KB_INDEX_DSN)';
  console.log(`\n[test set-up] knowledge index in ${where}`);
}

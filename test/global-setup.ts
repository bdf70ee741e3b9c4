import { detectKbIndexKind } from './integration/kb-index-database';

/**
 * Chooses once per run where the knowledge index of the hub-owning suites lives (test/integration/kb-index-database.ts):
 * the test PostgreSQL when it offers pgvector, an embedded PGlite otherwise. The same tests run either way.
 */
export default async function globalSetup(): Promise<void> {
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

// Prints GET /internal/preflight throughput and latency for a session answered from the signed 5-minute
// cookie cache next to the same check forced to the database (fresh=1), and with the budget check
// (budget=1: session plus month-to-date spend), all measured in one run over real HTTP on loopback.
// Needs PostgreSQL (BENCH_POSTGRES_DSN; throwaway schemas, dropped at the end).
// Run: npm run build && node dist/bench/preflight.js [--n=3000] [--c=16] [--warmup=200]  (or BENCH_N, ...)
import crypto from 'node:crypto';
import { buildAuthApp } from '../auth/app';
import { authSettings } from '../auth/config';
import { createCredentialUser } from '../auth/credential-users';
import { migrateIdentity } from '../auth/migrate';
import { identityTables } from '../db/qualified-tables';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { loadGets, loadRow, param, printJson } from './measure';
import { runBench } from './run-bench';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const N = param('n', 3000);
const CONCURRENCY = param('c', 16);
const WARMUP = param('warmup', 200);
const LOAD = { requests: N, concurrency: CONCURRENCY, warmup: WARMUP };

async function main(): Promise<void> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const schema = `bench_id_${suffix}`;
  const ingestSchema = `bench_keel_${suffix}`;
  const pool = createPool({ dsn: POSTGRES_DSN, max: 10, ssl: false, schema });
  await migrate(pool, ingestSchema);
  await migrateIdentity(pool, schema);
  const env = authSettings.parse({
    DATABASE_URL: POSTGRES_DSN,
    DATABASE_SCHEMA: schema,
    INGEST_SCHEMA: ingestSchema,
    AUTHLIB_SECRET: crypto.randomBytes(32).toString('base64url'),
    AUTHLIB_URL: 'http://localhost:8080',
    AUTHLIB_COOKIE_DOMAIN: 'localhost',
    TRUSTED_ORIGINS: 'http://localhost:3000',
    ADMIN_EMAILS: '',
  });
  const app = await buildAuthApp({ pool, env }, { logger: false });
  try {
    const password = crypto.randomBytes(16).toString('base64url');
    await createCredentialUser(pool, identityTables(schema), {
      email: 'bench@example.test',
      password,
      role: 'user',
      approved: true,
      defaultBudgetCents: 2500,
    });
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'bench@example.test', password },
    });
    const cookie = (signIn.cookies as Array<{ name: string; value: string }>)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const address = await app.listen({ host: '127.0.0.1', port: 0 });

    console.log(`GET /internal/preflight, ${N} requests, ${CONCURRENCY} concurrent, keep-alive HTTP on loopback`);
    console.log('check | req/s | p50 ms | p99 ms');
    const results: Array<{ check: string; rps: number; p50_ms: number; p99_ms: number }> = [];
    for (const [label, query] of [
      ['cookie-cache hit (no database)', ''],
      ['database-backed session (fresh=1)', '?fresh=1'],
      ['database session + budget (budget=1)', '?budget=1'],
    ] as const) {
      const result = await loadGets(new URL(address), `/internal/preflight${query}`, { cookie }, LOAD);
      console.log(loadRow(label, result));
      results.push({ check: label, rps: result.rps, p50_ms: result.p50, p99_ms: result.p99 });
    }
    printJson('preflight', {
      rows: results,
      p50_ratio_fresh_vs_cached: results[1]!.p50_ms / results[0]!.p50_ms,
      p50_ratio_budget_vs_cached: results[2]!.p50_ms / results[0]!.p50_ms,
    });
  } finally {
    await app.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.query(`DROP SCHEMA IF EXISTS "${ingestSchema}" CASCADE`);
    await pool.end();
  }
}

runBench(main);

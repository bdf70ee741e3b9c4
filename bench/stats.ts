// Prints GET /v1/stats latency at N jobs (default 100,000) next to the same aggregate run directly in SQL, measured in
// the same run (nothing is asserted):
//   1. seeds N jobs with INSERT ... SELECT generate_series over five orgs (the largest holds 40%), projects on two
//      thirds of the workflows, three tiers, four effort rungs, 1-3 level_finished events per job (the trigger fills
//      job_model_usage), a model_fallback on every 7th job and an approval on every 20th; then VACUUM (ANALYZE);
//   2. times, in interleaved turns after a warm-up, four scopes: an org token over all time, the same org over a
//      30-day window, the same org and one project, and an admin over every org; each through the real API over
//      loopback HTTP (token lookup, rate limits, the route, zod serialization) and as the route's statement alone on
//      the pool (statsQuery, the exact text the route runs);
//   3. checks once per scope that the API's job total equals a plain SELECT count(*) over job_runs.
// Needs PostgreSQL only (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end). GET /v1/stats never calls
// Temporal: the API gets a lazy client that is never dialled.
// Run: npm run build && node dist/bench/stats.js [--rows=100000] [--iterations=100] [--warmup=10]
import crypto from 'node:crypto';
import os from 'node:os';
import type { Pool } from 'pg';
import { statsQuery, type StatsFilter } from '../db/stats';
import { createToken } from '../db/tokens';
import { startReadOnlyBenchApi } from './api';
import { param, percentile, printJson } from './measure';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';

async function seed(pool: Pool, rows: number): Promise<void> {
  await pool.query(
    `INSERT INTO projects (slug, name, org_id)
     SELECT format('stats-%s-%s', o, p), 'p', format('org-stats-%s', o) FROM generate_series(0, 4) o, generate_series(0, 2) p`,
  );
  await pool.query(
    `INSERT INTO workflows (workflow_id, project_slug, org_id, created_at, updated_at)
     SELECT 'wf-' || g, CASE WHEN g % 3 = 0 THEN NULL ELSE format('stats-%s-%s', o.org, g % 3) END,
            format('org-stats-%s', o.org), t.at, t.at
       FROM generate_series(1, $1::int) g,
            LATERAL (SELECT CASE WHEN g % 5 < 2 THEN 0 ELSE g % 5 - 1 END AS org) o,
            LATERAL (SELECT timestamptz '2026-07-01 00:00:00+00' - (g * interval '90 seconds') AS at) t`,
    [rows],
  );
  await pool.query(
    `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by)
     SELECT 'pt-' || substr(workflow_id, 4), workflow_id, 'p', 'u' FROM workflows`,
  );
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, model_tier, created_by, org_id, task_queue,
                           cost_usd, reasoning_tokens, max_effort, created_at, updated_at)
     SELECT 'job-' || n, w.workflow_id, 'pt-' || n,
            (ARRAY['completed', 'completed', 'completed', 'failed', 'running', 'cancelled'])[1 + n % 6],
            (ARRAY['free', 'cheap', 'frontier'])[1 + n % 3], 'u', w.org_id, 'q',
            (n % 13) * 0.0013, (n % 5) * 100, (ARRAY['none', 'low', 'medium', 'high'])[1 + n % 4],
            w.created_at, w.created_at
       FROM workflows w, LATERAL (SELECT substr(w.workflow_id, 4)::int AS n) x`,
  );
  await pool.query(
    `INSERT INTO job_events (job_id, sequence, event_key, kind, agent_role, occurred_at, envelope)
     SELECT j.job_id, l, 'lf' || l, 'level_finished', 'L4.executor', j.created_at,
            jsonb_build_object('kind', 'level_finished', 'payload', jsonb_build_object(
              'provider', (ARRAY['openai', 'anthropic', 'demo'])[1 + (x.n + l) % 3],
              'model', (ARRAY['gpt-a', 'claude-b', 'keel-demo'])[1 + (x.n + l) % 3],
              'cost_usd', 0.0004 * l, 'reasoning_tokens', 10 * l))
       FROM job_runs j, LATERAL (SELECT substr(j.job_id, 5)::int AS n) x, generate_series(1, 1 + x.n % 3) l`,
  );
  await pool.query(
    `INSERT INTO job_events (job_id, sequence, event_key, kind, agent_role, occurred_at, envelope)
     SELECT job_id, 10, 'fb', 'model_fallback', 'L4.executor', created_at,
            jsonb_build_object('kind', 'model_fallback', 'payload',
                               jsonb_build_object('to_provider', 'anthropic', 'to_model', 'claude-b'))
       FROM job_runs WHERE substr(job_id, 5)::int % 7 = 0`,
  );
  await pool.query(
    `INSERT INTO approvals (approval_id, job_id, workflow_id, waiting_workflow_id, role, action, reason, status,
                            decided_by, decided_at)
     SELECT 'ap-' || job_id, job_id, workflow_id, 'w', 'L2.architect', 'a', 'r',
            CASE WHEN substr(job_id, 5)::int % 40 = 0 THEN 'approved' ELSE 'pending' END,
            CASE WHEN substr(job_id, 5)::int % 40 = 0 THEN 'u' END,
            CASE WHEN substr(job_id, 5)::int % 40 = 0 THEN now() END
       FROM job_runs WHERE substr(job_id, 5)::int % 20 = 0`,
  );
  await pool.query('VACUUM (ANALYZE)');
}

interface Scope {
  name: string;
  query: string;
  token: string;
  filter: StatsFilter;
}

async function main(): Promise<void> {
  const rows = param('rows', 100_000);
  const iterations = param('iterations', 100);
  const warmup = param('warmup', 10, 0);
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  console.log(
    `node ${process.version} | ${os.platform()} ${os.arch()} | ${os.cpus().length} CPUs (${os.cpus()[0]?.model})`,
  );
  const teardown = new Teardown();
  try {
    const schema = `bench_stats_${runId}`;
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, schema, 4);
    const { rows: version } = await pool.query<{ server_version: string }>('SHOW server_version');
    const seedStarted = process.hrtime.bigint();
    await seed(pool, rows);
    const { rows: seeded } = await pool.query<{ jobs: number; events: number; usage: number }>(
      `SELECT (SELECT count(*)::int FROM job_runs) AS jobs, (SELECT count(*)::int FROM job_events) AS events,
              (SELECT count(*)::int FROM job_model_usage) AS usage`,
    );
    console.log(
      `PostgreSQL ${version[0]?.server_version} | schema ${schema} | seeded ${seeded[0]?.jobs} jobs, ` +
        `${seeded[0]?.events} events, ${seeded[0]?.usage} usage rows in ` +
        `${(Number(process.hrtime.bigint() - seedStarted) / 1e9).toFixed(1)} s | iterations=${iterations} warm-up=${warmup}`,
    );

    const { baseUrl } = await startReadOnlyBenchApi(teardown, pool, `bench-stats-${runId}`);

    const org = 'org-stats-0';
    const member = (await createToken(pool, { userId: 'bench-user', orgId: org, isAdmin: false })).token;
    const admin = (await createToken(pool, { userId: 'bench-admin', orgId: 'org-bench-admin', isAdmin: true })).token;
    const since = '2026-06-01T00:00:00Z';
    const until = '2026-07-01T00:00:00Z';
    const scopes: Scope[] = [
      { name: 'org, all time', query: '', token: member, filter: { orgId: org } },
      {
        name: 'org, 30 days',
        query: `since=${since}&until=${until}`,
        token: member,
        filter: { orgId: org, since, until },
      },
      {
        name: 'org, 1 project',
        query: 'project_slug=stats-0-1',
        token: member,
        filter: { orgId: org, projectSlug: 'stats-0-1' },
      },
      { name: 'admin, all orgs', query: '', token: admin, filter: { orgId: null } },
    ];

    const viaApi = async (scope: Scope) => {
      const response = await fetch(`${baseUrl}/v1/stats${scope.query ? `?${scope.query}` : ''}`, {
        headers: { authorization: `Bearer ${scope.token}` },
      });
      if (response.status !== 200)
        throw new Error(`GET /v1/stats answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { jobs: { total: number } };
    };
    const viaSql = async (scope: Scope) => {
      const { text, values } = statsQuery(scope.filter);
      await pool.query(text, values);
    };

    for (const scope of scopes) {
      const api = await viaApi(scope);
      const where: string[] = [];
      const values: unknown[] = [];
      if (scope.filter.orgId) where.push(`j.org_id = $${values.push(scope.filter.orgId)}`);
      if (scope.filter.since) where.push(`j.created_at >= $${values.push(scope.filter.since)}`);
      if (scope.filter.until) where.push(`j.created_at < $${values.push(scope.filter.until)}`);
      if (scope.filter.projectSlug) where.push(`w.project_slug = $${values.push(scope.filter.projectSlug)}`);
      const { rows: plain } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM job_runs j JOIN workflows w USING (workflow_id)
          ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
        values,
      );
      console.log(
        `${scope.name}: ${api.jobs.total} jobs (plain count ${plain[0]?.n}: ${api.jobs.total === plain[0]?.n ? 'same' : 'DIFFERENT'})`,
      );
    }

    if (process.argv.includes('--explain')) {
      for (const scope of scopes) {
        const { text, values } = statsQuery(scope.filter);
        const { rows: plan } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
        console.log(`\nEXPLAIN ANALYZE, ${scope.name}:\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
      }
    }

    const samples = new Map<string, number[]>();
    const time = async (key: string, run: () => Promise<unknown>, record: boolean) => {
      const started = process.hrtime.bigint();
      await run();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (record) samples.set(key, [...(samples.get(key) ?? []), ms]);
    };
    for (let i = 0; i < warmup + iterations; i += 1) {
      for (const scope of scopes) {
        await time(`${scope.name}|api`, () => viaApi(scope), i >= warmup);
        await time(`${scope.name}|sql`, () => viaSql(scope), i >= warmup);
      }
    }
    const cell = (text: string, width: number) => text.padEnd(width);
    console.log(`\n${cell('scope', 18)}${cell('path', 26)}${cell('p50 ms', 10)}${cell('p99 ms', 10)}max ms`);
    const results: Array<{ scope: string; path: string; p50_ms: number; p99_ms: number }> = [];
    for (const scope of scopes) {
      for (const [path, label] of [
        ['api', 'GET /v1/stats (HTTP)'],
        ['sql', 'same statement on pool'],
      ] as const) {
        const sorted = [...samples.get(`${scope.name}|${path}`)!].sort((a, b) => a - b);
        console.log(
          `${cell(scope.name, 18)}${cell(label, 26)}${cell(percentile(sorted, 0.5).toFixed(1), 10)}` +
            `${cell(percentile(sorted, 0.99).toFixed(1), 10)}${sorted.at(-1)!.toFixed(1)}`,
        );
        results.push({ scope: scope.name, path, p50_ms: percentile(sorted, 0.5), p99_ms: percentile(sorted, 0.99) });
      }
    }
    printJson('stats', {
      rows: results,
      p50_ratio_api_over_sql: Object.fromEntries(
        scopes.map((scope) => {
          const [api, sql] = ['api', 'sql'].map((p) => results.find((r) => r.scope === scope.name && r.path === p)!);
          return [scope.name, api!.p50_ms / sql!.p50_ms];
        }),
      ),
    });
  } finally {
    await teardown.run();
  }
}

runBench(main);

// Prints the page latency of GET /v1/workflows deep in a large list next to its first page, measured in the same run
// (nothing is asserted). Keyset pagination should make page 1,000 cost about what page 1 costs:
//   1. seeds N workflows (default 100,000) with INSERT ... SELECT generate_series: six orgs (25% and 5 x 15%),
//      projects on two thirds, ~5% hidden, updated_at shared by groups of 8 rows (so the workflow_id tie-break
//      decides the order), one prompt and one or two jobs each (the list joins every row's latest job); then
//      VACUUM (ANALYZE);
//   2. per scope (an admin token: every org; an org token: the largest org) walks the list over HTTP once, with the
//      default limit, to page P (default 1,000), following next_cursor, and checks the cursor it reached against the
//      row an OFFSET query puts last on page P-1;
//   3. times page 1 (no cursor) and page P (that cursor) in interleaved turns after a warm-up, through two layers:
//      the real API over loopback HTTP (buildApp: token lookup, rate limits, the route, serialization) and
//      listWorkflows on the pool alone (the query, without HTTP);
//   4. prints each page's EXPLAIN (ANALYZE, BUFFERS) of the exact query the route runs, and whether workflows are
//      read by an index scan with no Sort over them.
// Needs PostgreSQL only (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end). Rate limits use the in-process
// queue store unless BENCH_REDIS_URL is set. GET /v1/workflows never calls Temporal: the API gets a lazy client that
// is never dialled.
// Run: npm run build && node dist/bench/workflows-list.js [--rows=100000] [--iterations=200] [--warmup=20]
//      [--page=1000] [--limit=20]  (or BENCH_ROWS, BENCH_ITERATIONS, ...)
import crypto from 'node:crypto';
import os from 'node:os';
import { escapeLiteral, type Pool } from 'pg';
import { createToken } from '../db/tokens';
import {
  decodeCursor,
  encodeCursor,
  listWorkflows,
  listWorkflowsQuery,
  type WorkflowCursor,
} from '../db/workflow-list';
import { startReadOnlyBenchApi } from './api';
import { param, percentile, printJson } from './measure';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL;
const OP_TIMEOUT_MS = 30_000;

let interrupted = false;

/** Workflows, their prompts and jobs, in a handful of set-based statements. */
async function seed(pool: Pool, rows: number): Promise<void> {
  await pool.query(
    `INSERT INTO projects (slug, name, org_id)
     SELECT format('bench-%s-%s', o, p), format('Bench %s/%s', o, p), format('org-bench-%s', o)
       FROM generate_series(0, 5) o, generate_series(0, 3) p`,
  );
  // g % 20 picks the org (a quarter in org 0, the rest spread over five); g / 8 the timestamp, so 8 consecutive rows
  // share one (with microseconds, which the cursor must carry); hidden is decided by g / 10, independently of the org.
  await pool.query(
    `INSERT INTO workflows (workflow_id, project_slug, created_by, org_id, hidden, created_at, updated_at)
     SELECT 'wf-' || g,
            CASE WHEN g % 3 = 0 THEN NULL ELSE format('bench-%s-%s', o.org, (g / 3) % 4) END,
            format('user-%s', g % 50),
            format('org-bench-%s', o.org),
            (g / 10) % 20 = 7,
            t.at - interval '1 hour',
            t.at
       FROM generate_series(1, $1::int) g,
            LATERAL (SELECT CASE WHEN g % 20 < 5 THEN 0 ELSE 1 + g % 5 END AS org) o,
            LATERAL (SELECT timestamptz '2026-07-01 00:00:00+00' - (g / 8) * interval '1 second'
                              + ((g / 8) % 7) * interval '1 microsecond' AS at) t`,
    [rows],
  );
  await pool.query(
    `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by, created_at)
     SELECT 'pt-' || substr(workflow_id, 4), workflow_id, 'Write hello.md that greets the reader.', created_by,
            created_at
       FROM workflows`,
  );
  // Every fourth workflow has a second, newer job; the latest job's status varies.
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue, created_at,
                           updated_at)
     SELECT format('job-bench-%s-%s', n, k), w.workflow_id, 'pt-' || n,
            (ARRAY['completed', 'completed', 'completed', 'failed', 'running', 'queued', 'paused', 'cancelled'])
              [1 + (n + k) % 8],
            w.created_by, w.org_id, 'bench', w.created_at + k * interval '1 minute', w.updated_at
       FROM workflows w,
            LATERAL (SELECT substr(w.workflow_id, 4)::int AS n) id,
            LATERAL generate_series(1, CASE WHEN n % 4 = 0 THEN 2 ELSE 1 END) k`,
  );
  await pool.query('VACUUM (ANALYZE) projects, workflows, prompt_threads, job_runs');
}

/** One way of fetching a page: its cursor (undefined for page 1) in, the page's workflow ids and next cursor out. */
type FetchPage = (cursor: string | undefined) => Promise<{ ids: string[]; next: string | null }>;

interface Scope {
  name: string;
  /** The org a listing is limited to, as orgScope() gives it; null for an admin. */
  orgId: string | null;
  token: string;
  visible: number;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1]!,
  };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Rows Removed by Filter'?: number;
  'Sort Key'?: string[];
  'Actual Rows': number;
  'Actual Loops': number;
  'Actual Total Time': number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

/** EXPLAIN (ANALYZE, BUFFERS) of the route's exact query, its parameters inlined as literals; a summary per node. */
async function explain(pool: Pool, orgId: string | null, limit: number, after: WorkflowCursor | undefined) {
  const { text, values } = listWorkflowsQuery({ orgId, includeHidden: false, limit, after });
  const literal = (value: unknown) => (typeof value === 'number' ? String(value) : escapeLiteral(String(value)));
  const sql = text.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]));
  const { rows } = await pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
  );
  const result = rows[0]!['QUERY PLAN'][0]!;
  const lines: string[] = [];
  const workflowScans: PlanNode[] = [];
  const workflowSorts: PlanNode[] = [];
  const walk = (node: PlanNode, depth: number) => {
    const on = node['Relation Name'] ? ` on ${node['Relation Name']} ${node.Alias ?? ''}`.trimEnd() : '';
    const using = node['Index Name'] ? ` using ${node['Index Name']}` : '';
    const details = [
      `rows=${node['Actual Rows']} loops=${node['Actual Loops']}`,
      `buffers hit=${node['Shared Hit Blocks']} read=${node['Shared Read Blocks']}`,
      `${node['Actual Total Time'].toFixed(3)} ms`,
    ];
    if (node['Sort Key']) details.push(`Sort Key: ${node['Sort Key'].join(', ')}`);
    if (node['Rows Removed by Filter']) details.push(`removed by filter=${node['Rows Removed by Filter']}`);
    lines.push(`${'  '.repeat(depth)}${node['Node Type']}${using}${on}  (${details.join(' | ')})`);
    if (node['Index Cond']) lines.push(`${'  '.repeat(depth + 2)}Index Cond: ${node['Index Cond']}`);
    if (node.Filter) lines.push(`${'  '.repeat(depth + 2)}Filter: ${node.Filter}`);
    if (node['Relation Name'] === 'workflows') workflowScans.push(node);
    if (node['Node Type'].includes('Sort') && node['Sort Key']?.some((key) => /\bw\.|updated_at/.test(key))) {
      workflowSorts.push(node);
    }
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(result.Plan, 0);
  const scans = workflowScans.map((n) => `${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}`);
  const byIndex = workflowScans.length > 0 && workflowScans.every((n) => n['Node Type'].startsWith('Index'));
  const keysetInIndex = !after || workflowScans.some((n) => n['Index Cond']?.includes('updated_at') ?? false);
  const verdict =
    `workflows read by ${scans.join(', ') || 'nothing?'}; ` +
    `Sort over workflows: ${workflowSorts.length === 0 ? 'none' : workflowSorts.length}` +
    (after ? `; keyset in Index Cond: ${keysetInIndex ? 'yes' : 'NO'}` : '') +
    ` -> ${byIndex && workflowSorts.length === 0 && keysetInIndex ? 'OK' : 'NOT an index range scan'}`;
  return { lines, executionMs: result['Execution Time'], verdict };
}

async function main(): Promise<void> {
  const rows = param('rows', 100_000);
  const iterations = param('iterations', 200);
  const warmup = param('warmup', 20, 0);
  const page = param('page', 1000, 2);
  const limit = param('limit', 20);
  if (limit > 100) throw new Error('--limit must be at most 100 (the API clamps larger limits)');
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  console.log(
    `node ${process.version} | ${os.platform()} ${os.arch()} | ${os.cpus().length} CPUs (${os.cpus()[0]?.model})`,
  );

  const teardown = new Teardown();
  process.once('SIGINT', () => (interrupted = true));
  try {
    const schema = `bench_wf_${runId}`;
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, schema, 4);
    const { rows: version } = await pool.query<{ server_version: string }>('SHOW server_version');
    console.log(
      `PostgreSQL ${version[0]?.server_version} | schema ${schema} | rows=${rows} limit=${limit} page=${page} ` +
        `iterations=${iterations} warm-up=${warmup} | rate limits: ${REDIS_URL ? `Redis ${REDIS_URL}` : 'in-process'}`,
    );

    const seedStarted = process.hrtime.bigint();
    await seed(pool, rows);
    const { rows: counts } = await pool.query<{ org_id: string; total: number; visible: number }>(
      `SELECT org_id, count(*)::int AS total, (count(*) FILTER (WHERE NOT hidden))::int AS visible
         FROM workflows GROUP BY org_id ORDER BY org_id`,
    );
    const { rows: jobs } = await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM job_runs');
    const { rows: ties } = await pool.query<{ max: number }>(
      'SELECT max(c)::int AS max FROM (SELECT count(*) AS c FROM workflows GROUP BY updated_at) t',
    );
    const seedSeconds = Number(process.hrtime.bigint() - seedStarted) / 1e9;
    const total = counts.reduce((sum, c) => sum + c.total, 0);
    const hidden = total - counts.reduce((sum, c) => sum + c.visible, 0);
    console.log(
      `seeded ${total} workflows (${hidden} hidden), ${jobs[0]?.count} jobs, up to ${ties[0]?.max} rows per ` +
        `updated_at, in ${seedSeconds.toFixed(1)} s: ${counts.map((c) => `${c.org_id} ${c.visible} visible`).join(', ')}`,
    );

    const { baseUrl } = await startReadOnlyBenchApi(teardown, pool, `bench-wf-${runId}`, REDIS_URL);

    const needed = page * limit;
    const largest = [...counts].sort((a, b) => b.visible - a.visible)[0]!;
    const admin = await createToken(pool, { userId: 'bench-admin', orgId: 'org-bench-admin', isAdmin: true });
    const member = await createToken(pool, { userId: 'bench-user', orgId: largest.org_id, isAdmin: false });
    const scopes: Scope[] = [
      { name: 'admin (all orgs)', orgId: null, token: admin.token, visible: total - hidden },
      { name: `org ${largest.org_id}`, orgId: largest.org_id, token: member.token, visible: largest.visible },
    ].filter((scope) => {
      if (scope.visible >= needed) return true;
      console.log(`skipping ${scope.name}: ${scope.visible} visible rows, page ${page} needs ${needed}`);
      return false;
    });
    if (scopes.length === 0) throw new Error(`no scope has the ${needed} visible rows page ${page} needs`);

    const results: Array<{ layer: string; scope: string; page: number; samples: number[] }> = [];
    const plans: string[] = [];
    for (const scope of scopes) {
      const http: FetchPage = async (cursor) => {
        const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
        const res = await fetch(`${baseUrl}/v1/workflows?${query.toString()}`, {
          headers: { authorization: `Bearer ${scope.token}` },
          signal: AbortSignal.timeout(OP_TIMEOUT_MS),
        });
        if (res.status !== 200)
          throw new Error(`GET /v1/workflows: HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
        const body = (await res.json()) as { workflows: Array<{ workflow_id: string }>; next_cursor: string | null };
        return { ids: body.workflows.map((w) => w.workflow_id), next: body.next_cursor };
      };
      const direct: FetchPage = async (cursor) => {
        const after = cursor === undefined ? undefined : decodeCursor(cursor);
        const found = await listWorkflows(pool, { orgId: scope.orgId, includeHidden: false, limit, after });
        const last = found[found.length - 1];
        return {
          ids: found.map((w) => w.workflow_id),
          next: last ? encodeCursor(last.updated_at, last.workflow_id) : null,
        };
      };

      // Walk to page P once, as a client would, checking that no row repeats on the way.
      const walkStarted = process.hrtime.bigint();
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let p = 1; p < page; p += 1) {
        if (interrupted) throw new Error('interrupted');
        const { ids, next } = await http(cursor);
        if (ids.length !== limit || !next) throw new Error(`${scope.name}: page ${p} has ${ids.length} rows`);
        for (const id of ids) seen.add(id);
        cursor = next;
      }
      const walkSeconds = Number(process.hrtime.bigint() - walkStarted) / 1e9;
      const deepCursor = cursor!;
      // The same position from the database: the last row of page P-1 by the list's order, found by OFFSET.
      const { rows: offsetRow } = await pool.query<{ updated_at: string; workflow_id: string }>(
        `SELECT to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at, workflow_id
           FROM workflows
          WHERE NOT hidden ${scope.orgId === null ? '' : 'AND org_id = $2'}
          ORDER BY updated_at DESC, workflow_id COLLATE "C" DESC
         OFFSET $1 LIMIT 1`,
        scope.orgId === null ? [(page - 1) * limit - 1] : [(page - 1) * limit - 1, scope.orgId],
      );
      const expected = encodeCursor(offsetRow[0]!.updated_at, offsetRow[0]!.workflow_id);
      const deepPage = await http(deepCursor);
      console.log(
        `\n${scope.name}: walked pages 1..${page - 1} over HTTP in ${walkSeconds.toFixed(1)} s, ` +
          `${seen.size} distinct rows (expected ${(page - 1) * limit}); page ${page} cursor ` +
          `${deepCursor === expected ? 'equals' : 'DIFFERS FROM'} the OFFSET ${(page - 1) * limit - 1} row's ` +
          `(${offsetRow[0]!.updated_at} ${offsetRow[0]!.workflow_id}); page ${page} starts at ${deepPage.ids[0]}`,
      );

      // Interleaved turns; the order flips every iteration so neither page always runs on a warmer cache.
      const cases = [
        { layer: 'HTTP', page: 1, run: () => http(undefined) },
        { layer: 'HTTP', page, run: () => http(deepCursor) },
        { layer: 'listWorkflows', page: 1, run: () => direct(undefined) },
        { layer: 'listWorkflows', page, run: () => direct(deepCursor) },
      ].map((c) => ({ ...c, scope: scope.name, samples: [] as number[] }));
      for (let i = 0; i < warmup + iterations; i += 1) {
        if (interrupted) throw new Error('interrupted');
        const order = i % 2 === 0 ? cases : [...cases].reverse();
        for (const c of order) {
          const ms = await timed(c.run);
          if (i >= warmup) c.samples.push(ms);
        }
      }
      results.push(...cases);

      for (const [label, after] of [
        ['page 1', undefined],
        [`page ${page}`, decodeCursor(deepCursor)],
      ] as const) {
        const plan = await explain(pool, scope.orgId, limit, after);
        plans.push(
          `${scope.name}, ${label}: execution ${plan.executionMs.toFixed(3)} ms; ${plan.verdict}`,
          ...plan.lines.map((line) => `    ${line}`),
        );
      }
    }

    console.log(
      `\nlatency per page (ms), ${iterations} timed fetches each after ${warmup} warm-up, one at a time, interleaved`,
    );
    const line = (cells: string[]) =>
      console.log(
        `${cells[0]!.padEnd(14)} ${cells[1]!.padEnd(20)} ${cells[2]!.padStart(11)} | ` +
          cells
            .slice(3)
            .map((x) => x.padStart(7))
            .join(' | '),
      );
    line(['layer', 'scope', 'page', 'p50', 'p95', 'p99', 'max']);
    const figures: Array<Record<string, unknown>> = [];
    for (let i = 0; i < results.length; i += 2) {
      const [first, deep] = [results[i]!, results[i + 1]!];
      const [a, b] = [stats(first.samples), stats(deep.samples)];
      figures.push({
        layer: first.layer,
        scope: first.scope,
        deep_page: deep.page,
        page1_p50_ms: a.p50,
        page1_p99_ms: a.p99,
        deep_p50_ms: b.p50,
        deep_p99_ms: b.p99,
        p50_ratio: b.p50 / a.p50,
        p99_ratio: b.p99 / a.p99,
      });
      line([first.layer, first.scope, '1', ...[a.p50, a.p95, a.p99, a.max].map((x) => x.toFixed(2))]);
      line([deep.layer, deep.scope, String(deep.page), ...[b.p50, b.p95, b.p99, b.max].map((x) => x.toFixed(2))]);
      line([
        '',
        '',
        `${deep.page}/1 ratio`,
        ...[b.p50 / a.p50, b.p95 / a.p95, b.p99 / a.p99, b.max / a.max].map((x) => `${x.toFixed(2)}x`),
      ]);
    }
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of the route's query (parameters inlined), per node:`);
    for (const text of plans) console.log(text);
    printJson('workflows-list', { rows: figures });
  } finally {
    await teardown.run();
  }
}

runBench(main);

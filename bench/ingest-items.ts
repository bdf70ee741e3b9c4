// What one submission's parts cost in CPU, each part on its own: the item-by-item account of docs/performance.md's
// ingest section. Each item runs N times one at a time (no concurrency, so nothing waits for a core behind another
// request), after a warm-up, in R interleaved rounds; CPU per operation is read from /proc for this process (the API
// and its clients), the Temporal dev server and this run's PostgreSQL backends, as bench:ingest does. Redis's own CPU
// is not counted (the server is shared). The parts:
//   HTTP floor      GET /healthz on the same API (fastify, its hooks and metrics, the undici client), no token
//   body            the chat body's zod parse and the prompt's redaction
//   token           the token lookup (one PostgreSQL round trip)
//   rate limits     both windows (Redis)
//   budgets         the org's budget rows (one round trip; no budget set, so the ledger is not read)
//   ids apart       the two ids as a round trip of their own (how a submission took them before)
//   rows            BEGIN with the ids and the idle limit, the rows' statement, COMMIT: the submission's transaction
//   start           the Temporal start with everything POST /v1/chat sends (memo, UI summary, attributes)
//   bare start      the bench:ingest baseline
//   POST /v1/chat   the whole submission over HTTP
// Numbers are printed, never asserted.
// Run: npm run build && node dist/bench/ingest-items.js [--n=200] [--warmup=20] [--rounds=2] [--json]
import crypto from 'node:crypto';
import os from 'node:os';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ChatRequestSchema } from '../api/routes/chat';
import { createIdAllocator } from '../db/ids';
import { recordSubmission } from '../db/jobs';
import { createToken, findTokenOwner } from '../db/tokens';
import { chargeRateLimits, checkBudget } from '../jobs/admit';
import { redactPrompt } from '../jobs/redact';
import { SUBMISSION_IDLE_LIMIT_MS } from '../pure/job-record';
import {
  KEEL_CREATED_BY,
  KEEL_KIND,
  KEEL_SEARCH_ATTRIBUTES,
  KEEL_STATUS,
  KEEL_WORKFLOW_ID,
  runSummary,
} from '../pure/search-attributes';
import { createQueueStore } from '../queue/create-queue-store';
import { findTemporalCli } from '../temporal/cli-path';
import { startBenchApi } from './api';
import { param, printJson } from './measure';
import { childPids, ownCpuMs, processCpuMs } from './process-cpu';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PROMPT = 'Write hello.md that greets the reader by name, then mail the summary to ops@example.com.';

interface Cpu {
  bench: number;
  temporal: number;
  postgres: number;
}

interface Item {
  name: string;
  op: (i: number) => Promise<unknown>;
  ops: number;
  cpu: Cpu;
}

async function main(): Promise<void> {
  const n = param('n', 200);
  const warmup = param('warmup', 20, 0);
  const rounds = param('rounds', 2);
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const cli = findTemporalCli(process.env.TEMPORAL_CLI_PATH);
  console.log(
    `node ${process.version} | ${os.cpus().length} CPUs | N=${n} per item, warm-up ${warmup}, ${rounds} rounds`,
  );
  const teardown = new Teardown();
  try {
    const temporal = await TestWorkflowEnvironment.createLocal({
      server: {
        ...(cli ? { executable: { type: 'existing-path', path: cli } } : {}),
        searchAttributes: KEEL_SEARCH_ATTRIBUTES,
        extraArgs: ['--log-level', 'error'],
      },
    });
    teardown.push('temporal', () => temporal.teardown());
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, `bench_${runId}`, 2);
    pool.options.idleTimeoutMillis = 0; // keep the watched backends (see bench/ingest.ts)
    const queue = await createQueueStore({ redisUrl: REDIS_URL, instanceId: `bench-${runId}` });
    teardown.push('redis', () => queue.close());
    const taskQueue = `bench-items-${runId}`;
    const { app, baseUrl } = await startBenchApi({ pool, queue, temporal: temporal.client, taskQueue });
    teardown.push('api', () => app.close());
    const { token } = await createToken(pool, { userId: 'bench', orgId: 'org-bench', isAdmin: false });
    const principal = (await findTokenOwner(pool, token))!;
    const held = await Promise.all([pool.connect(), pool.connect()]);
    const backends = await Promise.all(
      held.map(async (conn) => (await conn.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid),
    );
    for (const conn of held) conn.release();
    const temporalPids = childPids();
    const sum = (pids: number[]) => pids.reduce((total, pid) => total + processCpuMs(pid), 0);
    const cpuNow = (): Cpu => ({ bench: ownCpuMs(), temporal: sum(temporalPids), postgres: sum(backends) });

    const ids = createIdAllocator({ pool, queue });
    const admission = { queue, pool, rateLimits: { userPerMinute: 1_000_000, orgPerMinute: 1_000_000 } };
    const body = JSON.stringify({ prompt: PROMPT });
    const client = temporal.client;
    const keelStart = (jobId: string) =>
      client.workflow.start('runJob', {
        workflowId: jobId,
        taskQueue,
        args: [{ ids: { job_id: jobId, workflow_id: 'wf-0', prompt_id: 'pt-0' }, prompt: PROMPT, createdBy: 'bench' }],
        memo: { prompt_preview: PROMPT.slice(0, 200) },
        staticSummary: runSummary(PROMPT),
        staticDetails: [
          `**Keel job** \`${jobId}\` of workflow \`wf-0\``,
          'Submitted by `bench`',
          'Model tier: default',
        ].join('\n\n'),
        typedSearchAttributes: [
          { key: KEEL_KIND, value: 'job' },
          { key: KEEL_WORKFLOW_ID, value: 'wf-0' },
          { key: KEEL_CREATED_BY, value: 'bench' },
          { key: KEEL_STATUS, value: 'queued' },
        ],
      });
    const rowsSelect = await ids.workflowAndPromptIdsSelect!();
    const items: Item[] = [
      ['HTTP floor', () => fetch(`${baseUrl}/healthz`).then((res) => res.text())],
      ['body', async () => redactPrompt(ChatRequestSchema.parse(JSON.parse(body)).prompt)],
      ['token', () => findTokenOwner(pool, token)],
      ['rate limits', () => chargeRateLimits(admission, principal)],
      ['budgets', () => checkBudget(admission, principal, 'exempt')],
      ['ids apart', () => ids.nextWorkflowAndPromptIds()],
      [
        'rows',
        () =>
          recordSubmission(
            pool,
            {
              ids: rowsSelect,
              build: ([workflowId, promptId]) => ({
                jobId: `job-${crypto.randomUUID()}`,
                workflowId,
                newWorkflow: true,
                promptId,
                prompt: PROMPT,
                createdBy: 'bench',
                orgId: 'org-bench',
                taskQueue,
              }),
            },
            () => Promise.resolve(),
            { idleLimitMs: SUBMISSION_IDLE_LIMIT_MS },
          ),
      ],
      ['start', (i: number) => keelStart(`bench-items-${runId}-${i}`)],
      [
        'bare start',
        (i: number) =>
          client.workflow.start('runJob', {
            workflowId: `bench-items-bare-${runId}-${i}`,
            taskQueue,
            args: [
              { ids: { job_id: 'x', workflow_id: 'wf-0', prompt_id: 'pt-0' }, prompt: PROMPT, createdBy: 'bench' },
            ],
          }),
      ],
      [
        'POST /v1/chat',
        async () => {
          const res = await fetch(`${baseUrl}/v1/chat`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body,
          });
          if (res.status !== 202) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
        },
      ],
    ].map(([name, op]) => ({
      name: name as string,
      op: op as Item['op'],
      ops: 0,
      cpu: { bench: 0, temporal: 0, postgres: 0 },
    }));
    let next = 0;
    for (const item of items) for (let i = 0; i < warmup; i += 1) await item.op(next++);
    for (let round = 0; round < rounds; round += 1) {
      for (const item of items) {
        const before = cpuNow();
        for (let i = 0; i < n; i += 1) await item.op(next++);
        const after = cpuNow();
        item.ops += n;
        for (const key of ['bench', 'temporal', 'postgres'] as const) item.cpu[key] += after[key] - before[key];
      }
    }
    const per = (item: Item) => ({
      bench: item.cpu.bench / item.ops,
      temporal: item.cpu.temporal / item.ops,
      postgres: item.cpu.postgres / item.ops,
    });
    const line = (cells: string[]) =>
      console.log(
        `${cells[0]!.padEnd(15)} | ${cells
          .slice(1)
          .map((x) => x.padStart(8))
          .join(' | ')}`,
      );
    console.log('\nCPU ms per operation, one at a time (bench = this process: the API and its clients):');
    line(['item', 'bench', 'temporal', 'pg', 'total']);
    for (const item of items) {
      const cpu = per(item);
      line([
        item.name,
        ...[cpu.bench, cpu.temporal, cpu.postgres, cpu.bench + cpu.temporal + cpu.postgres].map((x) => x.toFixed(3)),
      ]);
    }
    printJson('ingest-items', {
      n,
      rounds,
      items: items.map((item) => ({ name: item.name, cpu_ms_per_op: per(item) })),
    });
  } finally {
    await teardown.run();
  }
}

runBench(main);

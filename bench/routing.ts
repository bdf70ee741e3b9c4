// Routing benchmarks, printed against baselines measured in the same run (nothing is asserted):
//   1. resolution µs/op over the shipped catalog, vs one filter+sort pass over the same rows;
//   2. dispatch overhead: a call through the router (walk, ledger, adapter) vs a direct HTTP POST of the same
//      request to the same local chat_compat server (the offline demo model), as a latency ratio;
//   3. ledger reserve+settle ops/s against Redis, vs bare Redis INCR round trips on the same connection count.
// Run: npm run build && node dist/bench/routing.js   (Redis at BENCH_REDIS_URL, default redis://127.0.0.1:6379)
import os from 'node:os';
import { Redis } from 'ioredis';
import { createQueueStore } from '../queue/create-queue-store';
import { loadCatalog, loadTeamControls } from '../routing/catalog/load';
import type { LevelRouting } from '../routing/catalog/types';
import { shippedModelFiles } from '../routing/config';
import { startDemoModelServer } from '../routing/demo-model/server';
import { createQuotaLedger } from '../routing/ledger';
import { buildRouter, withDemoAt } from '../routing/open-models';
import { printJson } from './measure';
import { runBench } from './run-bench';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROLES = ['L1.team_lead', 'L2.architect', 'L3.verifier', 'L4.executor'];
const BUDGETS = ['free', 'cheap', 'frontier'];

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function microsPerOp(fn: () => unknown, ops: number): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < ops; i += 1) fn();
  return Number(process.hrtime.bigint() - started) / 1e3 / ops;
}

async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main(): Promise<void> {
  console.log(`node ${process.version} | ${os.platform()} ${os.arch()} | ${os.cpus().length} CPUs`);
  const files = shippedModelFiles();
  const controls = await loadTeamControls(files.controls);
  const demo = await startDemoModelServer();
  const catalog = withDemoAt(await loadCatalog(files.catalog), demo.baseUrl);
  const queue = await createQueueStore({ redisUrl: REDIS_URL, instanceId: `bench-routing-${process.pid}` });
  // Every shipped provider "configured", so resolution works over the whole catalog.
  const env = Object.fromEntries(
    Object.values(catalog.providers).flatMap((p) => (p.auth?.env ? [[p.auth.env, 'bench']] : [])),
  );
  const router = await buildRouter(catalog, controls, env, queue, () => undefined);
  try {
    // 1. Resolution.
    const levels: LevelRouting[] = BUDGETS.flatMap((budget) =>
      ROLES.map((role) => ({ role, budget, requirements: role === 'L4.executor' ? ['code_generation'] : [] })),
    );
    let i = 0;
    const next = () => levels[i++ % levels.length]!;
    const baselineSort = () =>
      [...catalog.models]
        .filter((m) => controls.providers[m.provider])
        .sort((a, b) => (a.preference ?? 99) - (b.preference ?? 99));
    microsPerOp(() => router.resolve(next()), 2_000); // warm-up
    const resolveUs = median([1, 2, 3].map(() => microsPerOp(() => router.resolve(next()), 5_000)));
    const sortUs = median([1, 2, 3].map(() => microsPerOp(baselineSort, 5_000)));
    console.log(`\n1. resolution over the shipped catalog (${catalog.models.length} rows, 12 role×budget cases)`);
    console.log(
      `   resolveCandidates: ${resolveUs.toFixed(2)} µs/op | baseline filter+sort: ${sortUs.toFixed(2)} µs/op | ratio ${(resolveUs / sortUs).toFixed(1)}x`,
    );

    // 2. Dispatch overhead vs a direct HTTP call to the same server.
    const candidates = router.resolve({ role: 'L1.team_lead', pins: ['demo/keel-demo'] }).candidates;
    const messages = [
      { role: 'system' as const, content: 'Keel level: L1.team_lead' },
      { role: 'user' as const, content: 'Request:\nWrite hello.md that greets the reader' },
    ];
    const direct = () =>
      fetch(`${demo.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer demo' },
        body: JSON.stringify({ model: 'keel-demo', messages }),
      }).then((r) => r.json());
    const routed = () => router.call({ candidates, messages });
    for (let w = 0; w < 50; w += 1) await Promise.all([direct(), routed()]);
    const directMs: number[] = [];
    const routedMs: number[] = [];
    for (let n = 0; n < 400; n += 1) {
      directMs.push(await timeMs(direct));
      routedMs.push(await timeMs(routed));
    }
    const d = median(directMs);
    const r = median(routedMs);
    console.log(
      '\n2. one call, sequential, 400 samples each (the demo model on loopback; its free quota goes through the ledger)',
    );
    console.log(
      `   direct HTTP p50 ${d.toFixed(3)} ms | through the router p50 ${r.toFixed(3)} ms | ratio ${(r / d).toFixed(2)}x`,
    );

    // 3. Ledger reserve+settle vs bare Redis round trips.
    const ledger = createQuotaLedger(queue, () => undefined);
    const quota = { rpm: 1e9, tpm: 1e12, rpd: 1e9 };
    const raw = new Redis(REDIS_URL);
    const key = `bench-routing-${process.pid}:raw`;
    const concurrency = 8;
    const total = 4_000;
    const opsPerSecond = async (op: () => Promise<unknown>) => {
      let done = 0;
      const started = process.hrtime.bigint();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (done < total) {
            done += 1;
            await op();
          }
        }),
      );
      return total / (Number(process.hrtime.bigint() - started) / 1e9);
    };
    const ledgerOps = await opsPerSecond(async () => {
      const reserved = await ledger.reserve('bench/model', quota, 2_000);
      if (reserved.ok) await ledger.settle(reserved.reservation, 500);
    });
    const redisOps = await opsPerSecond(() => raw.incr(key));
    await raw.del(key);
    raw.disconnect();
    console.log(`\n3. free-quota ledger against Redis, ${concurrency} concurrent callers, ${total} ops`);
    console.log(
      `   reserve+settle: ${ledgerOps.toFixed(0)} ops/s | bare INCR: ${redisOps.toFixed(0)} ops/s | ratio ${(ledgerOps / redisOps).toFixed(3)}x`,
    );
    printJson('routing', {
      resolve_us_per_op: resolveUs,
      baseline_sort_us_per_op: sortUs,
      resolve_ratio: resolveUs / sortUs,
      direct_p50_ms: d,
      routed_p50_ms: r,
      dispatch_ratio: r / d,
      ledger_ops_per_s: ledgerOps,
      redis_incr_ops_per_s: redisOps,
      ledger_ratio: ledgerOps / redisOps,
    });
  } finally {
    await queue.close();
    await demo.close();
  }
}

runBench(main);

// Prints the wall time of product-build jobs (`#build`) on the offline demo model, submit to `final`, and one job's
// timeline (kinds in order with the time since submit), against the real stack: the Temporal dev server, a
// throwaway PostgreSQL schema, Redis, the API and a worker in this process, the sandboxed build, and a local
// server speaking Vercel's deployments API. Nothing is asserted. The baseline is the default `build` scenario's job
// in the same run (same stack, same demo model), so the difference is what the product steps cost.
// Run: node test/integration/ts-entry.js bench/product-build.ts [--n=3]  (TEST_POSTGRES_DSN, TEST_REDIS_URL as for
// tests; it stands on the integration harness, so it runs from sources)
import { createSecretStore } from '../secrets/store';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { streamJobEvents } from '../cli/event-stream';
import type { EventEnvelope } from '../events/envelope';
import { DEFAULT_BUILD_LIMITS } from '../products/build-runner';
import { startFakeVercel } from '../test/fakes/fake-vercel';
import { startInfrastructure, startKeel } from '../test/integration/harness';
import { param, percentile, printJson } from './measure';
import { runBench, Teardown } from './run-bench';

async function main(): Promise<void> {
  const n = param('n', 3);
  const teardown = new Teardown();
  try {
    await measure(n, teardown);
  } finally {
    await teardown.run();
  }
}

async function measure(n: number, teardown: Teardown): Promise<void> {
  const infra = await startInfrastructure();
  teardown.push('infrastructure', () => infra.close());
  const vercel = await startFakeVercel();
  teardown.push('fake Vercel', () => vercel.close());
  const secretsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-secrets-'));
  teardown.push('secrets', () => fs.rm(secretsDir, { recursive: true, force: true }));
  await fs.writeFile(path.join(secretsDir, 'VERCEL_TOKEN'), vercel.token);
  const keel = await startKeel({
    ...infra,
    products: {
      buildLimits: DEFAULT_BUILD_LIMITS,
      vercel: { apiUrl: vercel.url, pollIntervalMs: 50, readyTimeoutMs: 60_000, tokenSecretId: 'VERCEL_TOKEN' },
    },
    secrets: createSecretStore({ dir: secretsDir, ttlMs: 0, fromEnv: false, env: {} }),
  });
  teardown.push('keel', () => keel.close());
  await keel.startWorker();
  const run = async (prompt: string): Promise<{ ms: number; events: EventEnvelope[] }> => {
    const started = process.hrtime.bigint();
    const response = await fetch(`${keel.baseUrl}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt }),
    });
    const { job_id: jobId } = (await response.json()) as { job_id: string };
    const events: EventEnvelope[] = [];
    for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
    return { ms: Number((process.hrtime.bigint() - started) / 1_000_000n), events };
  };
  {
    await run('Write hello.md that greets the reader'); // warm-up: workflow bundle, first connections
    const product: number[] = [];
    const plain: number[] = [];
    let timeline: EventEnvelope[] = [];
    for (let i = 0; i < n; i += 1) {
      const built = await run('Build a landing page for a bakery #build');
      if (built.events.at(-1)?.kind !== 'final') throw new Error(`product job ended with ${built.events.at(-1)?.kind}`);
      product.push(built.ms);
      timeline = built.events;
      plain.push((await run('Write hello.md that greets the reader')).ms);
    }
    const t0 = Date.parse(timeline[0]!.occurred_at);
    console.log('timeline of the last product-build job (ms since its first event, role, kind):');
    for (const e of timeline)
      console.log(`  ${String(Date.parse(e.occurred_at) - t0).padStart(6)}  ${e.agent_role.padEnd(20)} ${e.kind}`);
    const show = (label: string, samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      console.log(`${label}: n=${sorted.length} p50=${percentile(sorted, 0.5)} ms max=${sorted.at(-1)} ms`);
    };
    show('product build (#build, demo model, real build + deploy to the local Vercel server)', product);
    show('default build scenario job (same stack, demo model)', plain);
    const p50 = (samples: number[]) =>
      percentile(
        [...samples].sort((a, b) => a - b),
        0.5,
      );
    printJson('product-build', {
      product_build_p50_ms: p50(product),
      default_job_p50_ms: p50(plain),
      p50_ratio: p50(product) / p50(plain),
    });
  }
}

runBench(main);

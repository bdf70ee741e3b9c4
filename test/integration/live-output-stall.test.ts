import { modelEnv } from '../../routing/config';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { startStallingStreamModel } from './stalling-stream-model';
import { expectMidStreamFallback, submitAndWatch } from './mid-stream-fallback';
import { twoModelCatalog } from './two-model-catalog';

/**
 * A vendor stream that goes silent after some tokens, through a real job: the executor's first candidate streams part
 * of its write_file call and then sends nothing, its connection left open. The worker's stall limit
 * (`KEEL_STREAM_STALL_MS`, small here) aborts the call: Keel closes the vendor's connection, the client is told to drop
 * the stalled attempt's output before the next candidate's arrives, the level emits `model_fallback` saying the stream
 * stalled, and the job finishes with the second candidate's file. Nothing in the test waits a fixed time: the stall
 * limit is the worker's, and the test waits for its effects.
 */
let infra: Infrastructure;
let demo: DemoModelServer;
let vendor: Awaited<ReturnType<typeof startStallingStreamModel>>;
let keel: KeelUnderTest;

const FIRST = 'alpha-large';
const SECOND = 'alpha-small';

/**
 * The worker's setting, read from its environment as a worker process reads it. Small, so the test is quick; not so
 * small that a busy machine's slow first token from the demo model would count as a stall.
 */
const workerEnv = modelEnv.parse({ KEEL_STREAM_STALL_MS: '3000' });

beforeAll(async () => {
  infra = await startInfrastructure();
  demo = await startDemoModelServer();
  vendor = await startStallingStreamModel({
    upstream: demo.baseUrl,
    level: 'L4.executor',
    model: FIRST,
    afterEvents: 6,
  });
  keel = await startKeel({
    ...infra,
    catalog: twoModelCatalog(vendor.baseUrl, FIRST, SECOND),
    controls: { providers: { alpha: {} } },
    providerEnv: { ALPHA_KEY: 'sk-alpha' },
  });
  await keel.startWorker({
    liveOutput: { enabled: workerEnv.KEEL_LIVE_OUTPUT, stallMs: workerEnv.KEEL_STREAM_STALL_MS },
  });
});

afterAll(async () => {
  await keel?.close();
  await vendor?.close();
  await demo?.close();
  await infra?.close();
});

test('a stream that stalls after some tokens is closed by Keel and falls back: the client discards the partial output, model_fallback says stream_stalled, the job finishes', async () => {
  const { jobId, executor, messages, streamed } = await submitAndWatch(keel, 'Write notes.md about durable workflows');

  // The first candidate streamed part of the file and went silent.
  await vendor.stalled;
  // Keel gives up on it: the vendor sees its client close the answer it never ended.
  await vendor.closedByClient;
  await streamed;
  process.stdout.write(`stream silent → vendor connection closed: ${vendor.closedAt! - vendor.stalledAt!} ms\n`);

  // The executor's walk left the first model because its stream stalled, and the job finished on the second.
  await expectMidStreamFallback(
    keel,
    jobId,
    messages,
    { levelId: executor, role: 'L4.executor' },
    { first: FIRST, second: SECOND, provider: 'alpha', reason: 'stream_stalled' },
  );
});

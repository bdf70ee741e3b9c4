import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { startFailingStreamModel } from './failing-stream-model';
import { expectMidStreamFallback, submitAndWatch } from './mid-stream-fallback';
import { twoModelCatalog } from './two-model-catalog';
import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * A 429 in the middle of a streamed answer, through a real job: the executor's first candidate streams part of its
 * write_file call and then fails with a rate limit (the `error` event OpenAI sends after its 200). The walk moves to
 * the next candidate as for a failed request, the client is told to drop the failed attempt before the new attempt's
 * output arrives, the level emits `model_fallback`, and the file the job writes is the second candidate's.
 */
let infra: Infrastructure;
let demo: DemoModelServer;
let vendor: Awaited<ReturnType<typeof startFailingStreamModel>>;
let keel: KeelUnderTest;

const FIRST = 'alpha-large';
const SECOND = 'alpha-small';

beforeAll(async () => {
  infra = await startInfrastructure();
  demo = await startDemoModelServer();
  vendor = await startFailingStreamModel({
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
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await vendor?.close();
  await demo?.close();
  await infra?.close();
});

test('a 429 mid-stream falls back to the next candidate: the client discards the partial output first, model_fallback is emitted, the output is the second candidate’s', async () => {
  const { jobId, executor, messages, streamed } = await submitAndWatch(keel, 'Write notes.md about durable workflows');
  // The first candidate has streamed part of the file, and the client has it; then the rate limit strikes.
  await vendor.reached;
  await eventually(
    () =>
      messages.some(
        (m) =>
          m.type === 'delta' &&
          m.delta.level_id === executor &&
          m.delta.kind === 'tool_arguments' &&
          m.delta.text.length > 0,
      ),
    { what: "the first candidate's partial write_file arguments on the job stream" },
  );
  vendor.fail();
  await streamed;
  // The executor's walk left the first model for its 429 (the levels after it skip that model too while its cool-down
  // lasts: `rate_limited_cooldown`, as after any 429), and the job finished on the second.
  await expectMidStreamFallback(
    keel,
    jobId,
    messages,
    { levelId: executor, role: 'L4.executor' },
    { first: FIRST, second: SECOND, provider: 'alpha', reason: 'rate_limited' },
  );
});

import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { PromptCache } from '../../bench/prompt-cache';
import type { Catalog, ModelRow } from '../../routing/catalog/types';
import { inputWindow } from '../../routing/context-fit';
import {
  anthropicReplies,
  startFakeAnthropic,
  type FakeAnthropic,
  type MessagesRequest,
} from '../fakes/fake-anthropic';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * A job whose every level runs on one vendor_a model with a small context window and cached-input prices, against the
 * fake Anthropic server counting usage with a prompt cache (bench/prompt-cache.ts): the wire carries cache_control
 * breakpoints, a large tool result is cut to fit the window with a note saying how to read on, the executor's later
 * rounds read their prefix from the cache, and level_finished and the job's row price those tokens at the cached rate.
 */
let infra: Infrastructure;
let anthropic: FakeAnthropic;
let keel: KeelUnderTest;

const pricing = { input: 0.003, output: 0.015, cached_input: 0.0003, cache_write: 0.00375 };
const small: ModelRow = {
  provider: 'ant',
  model: 'claude-small-window',
  wire: 'vendor_a',
  features: ['tool_use', 'streaming'],
  cost_tier: 'cheap',
  pricing_per_1k: pricing,
  context_tokens: 9_000,
  max_output_tokens: 1_000,
};

beforeAll(async () => {
  infra = await startInfrastructure();
  anthropic = await startFakeAnthropic();
  const catalog: Catalog = {
    providers: { ant: { wire: 'vendor_a', base_url: anthropic.baseUrl, auth: { env: 'ANT_KEY' } } },
    models: [small],
  };
  keel = await startKeel({ ...infra, catalog, controls: { providers: { ant: {} } }, providerEnv: { ANT_KEY: 'k' } });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await anthropic?.close();
  await infra?.close();
});

const content = Array.from({ length: 300 }, (_, i) => `entry ${i + 1}: the quick brown fox`).join('\n');

test('a level’s prompt fits a small window, is marked for caching, and cached input is priced at the cached rate', async () => {
  const cache = new PromptCache();
  const counted = (reply: ReturnType<typeof anthropicReplies.text>) => anthropicReplies.counted(cache, reply);
  anthropic.enqueue(
    counted(anthropicReplies.text('Plan: 1. write big.txt')),
    counted(anthropicReplies.text('Task: write big.txt and read it back. Acceptance: big.txt has 300 entries.')),
    counted(
      anthropicReplies.blocks([
        { type: 'tool_use', id: 'toolu_w', name: 'write_file', input: { path: 'big.txt', content } },
      ]),
    ),
    counted(
      anthropicReplies.blocks([{ type: 'tool_use', id: 'toolu_r', name: 'read_file', input: { path: 'big.txt' } }]),
    ),
    counted(anthropicReplies.text('Wrote big.txt with 300 entries.')),
    counted(anthropicReplies.text('{"verdict":"pass","deltas":[]}')),
  );

  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write big.txt with 300 entries', scenario: 'build-and-test' }),
  });
  expect(response.status).toBe(202);
  const { job_id: jobId } = (await response.json()) as { job_id: string };
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  expect(events.at(-1)?.kind).toBe('final');

  const requests = anthropic.requests.map((r) => r.body);
  expect(requests).toHaveLength(6);
  // The vendor_a wire: the last tool, the system block and the conversation carry cache_control breakpoints.
  for (const body of requests) {
    expect(JSON.stringify(body.system)).toContain('"cache_control":{"type":"ephemeral"}');
    expect(JSON.stringify(body.messages.at(-1))).toContain('"cache_control":{"type":"ephemeral"}');
  }
  const executorRounds = requests.filter((body) => JSON.stringify(body.system).includes('L4.executor'));
  expect(executorRounds).toHaveLength(3);
  expect(executorRounds[0]!.tools!.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });

  // The read_file result (over an eighth of the window) went out cut, with the line to read on from.
  const lastRound = JSON.stringify(executorRounds[2]!.messages);
  expect(lastRound).toMatch(
    /\[cut by Keel to fit the model's context window: showing \d+ of \d+ characters; read the rest with read_file \{\\"path\\": \\"big.txt\\", \\"start_line\\": \d+\}\]/,
  );
  // Never over the window: the fake counts about 4 characters a token; Keel's estimate (3) is above it.
  const executor = events.find((e) => e.kind === 'level_finished' && e.agent_role === 'L4.executor')!.payload;
  expect(executor.tool_results_cut).toBe(1);
  expect(executor.prompt_tokens_estimated as number).toBeGreaterThanOrEqual(executor.prompt_tokens as number);
  expect(executor.prompt_tokens_estimated as number).toBeLessThanOrEqual(3 * inputWindow(small));

  // The same requests through a fresh cache give the usage the fake reported; the cost follows the catalog's rates.
  const replay = new PromptCache();
  const usages = requests.map((body) => replay.usage(body as MessagesRequest & Record<string, unknown>));
  const executorUsage = usages.filter((_, i) => JSON.stringify(requests[i]!.system).includes('L4.executor'));
  const cached = executorUsage.reduce((sum, u) => sum + u.cache_read_input_tokens, 0);
  expect(cached).toBeGreaterThan(0);
  expect(executor.cached_prompt_tokens).toBe(cached);
  const price = (u: (typeof usages)[number]) =>
    (u.input_tokens * pricing.input +
      u.cache_read_input_tokens * pricing.cached_input +
      u.cache_creation_input_tokens * pricing.cache_write +
      9 * pricing.output) /
    1000;
  expect(executor.cost_usd as number).toBeCloseTo(
    executorUsage.map(price).reduce((a, b) => a + b, 0),
    10,
  );
  expect(executor.prompt_tokens).toBe(
    executorUsage.reduce(
      (sum, u) => sum + u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
      0,
    ),
  );

  // The job's total, in `final` and in its row, is the sum of the levels' cached-priced costs.
  const levels = events.filter((e) => e.kind === 'level_finished');
  const total = levels.reduce((sum, e) => sum + Number(e.payload.cost_usd), 0);
  expect(total).toBeCloseTo(
    usages.map(price).reduce((a, b) => a + b, 0),
    10,
  );
  expect(events.at(-1)!.payload.cost_usd as number).toBeCloseTo(total, 10);
  const row = await infra.db.pool.query<{ cost_usd: string }>('SELECT cost_usd FROM job_runs WHERE job_id = $1', [
    jobId,
  ]);
  expect(Number(row.rows[0]!.cost_usd)).toBeCloseTo(total, 6);
});

import { startFakeAnthropic, anthropicErrors, anthropicReplies, type FakeAnthropic } from '../fakes/fake-anthropic';
import { openAIErrors, openAIReplies, startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai';
import type { QueueStore } from '../../queue/queue-store';
import type { Catalog, TeamControls } from '../../routing/catalog/types';
import { NoCandidateAnswered, ProviderUnfunded } from '../../routing/dispatch';
import { buildRouter } from '../../routing/open-models';
import type { ModelRouter } from '../../routing/router';
import { createTestQueue } from './harness';

/**
 * The walk's rules, each by name, through the real adapters against local servers that speak the
 * vendors' wires, with the ledger and provider flags in real Redis (two routers on one prefix stand
 * for two worker replicas).
 */

let alpha: FakeOpenAI;
let beta: FakeAnthropic;
let free: FakeOpenAI;
let queue: QueueStore;
const messages = [{ role: 'user' as const, content: 'hello' }];
const keys = { ALPHA_KEY: 'a', BETA_KEY: 'b' };

function catalogFor(): Catalog {
  return {
    providers: {
      alpha: { wire: 'chat_compat', base_url: alpha.baseUrl, auth: { env: 'ALPHA_KEY' } },
      beta: { wire: 'vendor_a', base_url: beta.baseUrl, auth: { env: 'BETA_KEY' } },
      freebie: { wire: 'chat_compat', base_url: free.baseUrl },
    },
    models: [
      row('alpha', 'alpha-large', 'frontier', 1, { effort: { high: { reasoning_effort: 'high' } }, reasoning: true }),
      row('alpha', 'alpha-medium', 'mid', 1),
      row('beta', 'beta-large', 'frontier', 2),
      row('alpha', 'alpha-small', 'cheap', 1),
      {
        provider: 'freebie',
        model: 'free-model',
        wire: 'chat_compat',
        features: ['tool_use'],
        cost_tier: 'free',
        context_tokens: 8000,
        max_output_tokens: 100,
        quota: { rpm: 1, tpm: 100_000, rpd: 100 },
      },
    ],
  };
}

function row(
  provider: string,
  model: string,
  tier: 'cheap' | 'mid' | 'frontier',
  preference: number,
  extra: { effort?: Record<string, Record<string, unknown>>; reasoning?: boolean } = {},
) {
  return {
    provider,
    model,
    wire: provider === 'beta' ? ('vendor_a' as const) : ('chat_compat' as const),
    features: extra.reasoning ? (['tool_use', 'reasoning'] as const).slice() : ['tool_use' as const],
    cost_tier: tier,
    pricing_per_1k: { input: 0.01, output: 0.03 },
    context_tokens: 200_000,
    max_output_tokens: 4096,
    preference,
    ...(extra.effort ? { effort: extra.effort } : {}),
  };
}

const everyone: TeamControls = { providers: { alpha: {}, beta: {}, freebie: {} } };

function router(controls: TeamControls = everyone, env: NodeJS.ProcessEnv = keys): Promise<ModelRouter> {
  return buildRouter(catalogFor(), controls, env, queue, () => undefined);
}

beforeAll(async () => {
  [alpha, beta, free] = await Promise.all([startFakeOpenAI(), startFakeAnthropic(), startFakeOpenAI()]);
});

beforeEach(async () => {
  queue = await createTestQueue();
});

afterEach(async () => {
  await queue.close();
});

afterAll(async () => {
  await Promise.all([alpha.close(), beta.close(), free.close()]);
});

function requestsTo(server: { requests: ReadonlyArray<{ body: unknown }> }, model: string): number {
  return server.requests.filter((r) => (r.body as { model?: string } | undefined)?.model === model).length;
}

test('resolution returns the whole ordered band, strongest first, and routing_decision names it', async () => {
  const decision = (await router()).resolve({ role: 'L2.architect', budget: 'frontier' });
  expect(decision.candidates.map((c) => `${c.provider}/${c.model}`).slice(0, 3)).toEqual([
    'alpha/alpha-large',
    'beta/beta-large',
    'alpha/alpha-medium',
  ]);
  expect(decision.offline).toBe(false);
});

test('resolving the same level again gives an equal decision the caller may change freely', async () => {
  const r = await router();
  const level = { role: 'L2.architect', budget: 'frontier', requirements: ['tool_use'] };
  const first = r.resolve(level);
  const expected = structuredClone(first);
  first.candidates.splice(0, 1);
  first.candidates[0]!.model = 'changed';
  first.notes.push('changed');

  expect(r.resolve({ ...level, requirements: ['tool_use'] })).toEqual(expected);
  expect(r.resolve({ ...level, budget: 'cheap' }).candidates[0]).not.toEqual(expected.candidates[0]);
});

test('a provider omitted from team controls never appears, without an error', async () => {
  const decision = (await router({ providers: { alpha: {} } })).resolve({ role: 'L2.architect', budget: 'frontier' });
  expect(decision.candidates.some((c) => c.provider === 'beta')).toBe(false);
});

test('a provider without a resolvable key is not routed to; with none at all the offline demo model would stand in', async () => {
  const decision = (await router(everyone, { ALPHA_KEY: 'a' })).resolve({ role: 'L2.architect', budget: 'frontier' });
  expect(decision.candidates.some((c) => c.provider === 'beta')).toBe(false);
});

test('on a failed request the walk tries the next model on the same provider, then the other providers, emitting a hop each', async () => {
  const r = await router();
  const { candidates } = r.resolve({ role: 'L2.architect', budget: 'frontier' });
  alpha.enqueue(
    openAIReplies.error(500, openAIErrors.serverError()),
    openAIReplies.text('from medium', { model: 'alpha-medium' }),
  );
  const outcome = await r.call({ candidates, messages });
  expect(outcome).toMatchObject({ provider: 'alpha', candidateModel: 'alpha-medium' });
  expect(outcome.reply.content).toBe('from medium');
  expect(outcome.hops).toEqual([
    { from_model: 'alpha-large', to_model: 'alpha-medium', to_provider: 'alpha', reason: 'provider_unavailable' },
  ]);
  expect(requestsTo(beta, 'beta-large')).toBe(0);
});

test('a refused credential (401 or 403) marks the provider dead for the rest of the call', async () => {
  const r = await router();
  const { candidates } = r.resolve({ role: 'L2.architect', budget: 'frontier' });
  const before = requestsTo(alpha, 'alpha-medium');
  alpha.enqueue(openAIReplies.error(401, openAIErrors.invalidApiKey()));
  beta.enqueue(anthropicReplies.text('from beta', { model: 'beta-large' }));
  const outcome = await r.call({ candidates, messages });
  expect(outcome.provider).toBe('beta');
  expect(requestsTo(alpha, 'alpha-medium')).toBe(before);
  expect(outcome.hops[0]).toMatchObject({
    from_model: 'alpha-large',
    to_provider: 'beta',
    reason: 'provider_auth_refused',
  });
});

test('an unfunded account raises ProviderUnfunded and is skipped for about 30 minutes by every replica', async () => {
  const first = await router();
  const { candidates } = first.resolve({ role: 'L2.architect', budget: 'frontier' });
  alpha.enqueue(openAIReplies.error(429, openAIErrors.insufficientQuota()));
  beta.enqueue(anthropicReplies.error(400, anthropicErrors.creditBalanceTooLow()));
  const failure = first.call({ candidates, messages });
  await expect(failure).rejects.toBeInstanceOf(ProviderUnfunded);

  // Another replica (another router over the same Redis prefix) does not even try them.
  const alphaBefore = alpha.requests.length;
  const betaBefore = beta.requests.length;
  await expect((await router()).call({ candidates, messages })).rejects.toBeInstanceOf(NoCandidateAnswered);
  expect(alpha.requests.length).toBe(alphaBefore);
  expect(beta.requests.length).toBe(betaBefore);
  expect(await queue.hasFlag('provider:alpha:unfunded')).toBe(true);
});

test('a provider 429 sets a cooldown on that model, honouring Retry-After', async () => {
  const r = await router();
  const { candidates } = r.resolve({ role: 'L2.architect', budget: 'frontier' });
  alpha.enqueue(
    openAIReplies.error(429, openAIErrors.rateLimited(), { 'retry-after': '120' }),
    openAIReplies.text('medium answers', { model: 'alpha-medium' }),
    openAIReplies.text('medium again', { model: 'alpha-medium' }),
  );
  await r.call({ candidates, messages });
  const largeBefore = requestsTo(alpha, 'alpha-large');
  const again = await r.call({ candidates, messages });
  expect(requestsTo(alpha, 'alpha-large')).toBe(largeBefore);
  expect(again.hops[0]).toMatchObject({ from_model: 'alpha-large', reason: 'rate_limited_cooldown' });
});

test('a spent free quota skips the model until its window rolls, and is not a health failure', async () => {
  const r = await router();
  const candidates = r.resolve({
    role: 'L1.team_lead',
    budget: 'free',
    pins: ['freebie/free-model', 'alpha/alpha-small'],
  }).candidates;
  expect(candidates.map((c) => c.model)).toEqual(['free-model', 'alpha-small']);
  free.enqueue(openAIReplies.text('free answer', { model: 'free-model' }));
  alpha.enqueue(openAIReplies.text('paid answer', { model: 'alpha-small' }));
  expect((await r.call({ candidates, messages })).provider).toBe('freebie');
  const second = await r.call({ candidates, messages });
  expect(second.provider).toBe('alpha');
  expect(second.hops[0]).toMatchObject({ from_model: 'free-model', reason: 'free_quota_spent:rpm' });
  expect(await queue.hasFlag('provider:freebie:unfunded')).toBe(false);
  const listed = (await r.list()).find((m) => m.model === 'free-model')!;
  expect(listed.quota?.rpm).toMatchObject({ used: 1, limit: 1 });
});

test('the effort fragment of the resolved rung is sent, and cost comes from the catalog price', async () => {
  const r = await router();
  const { candidates } = r.resolve({ role: 'L2.architect', budget: 'frontier', effort: 'high' });
  expect(candidates[0]).toMatchObject({ model: 'alpha-large', effort: 'high', requested_effort: 'high' });
  alpha.enqueue(
    openAIReplies.text('thought hard', {
      model: 'alpha-large',
      usage: { promptTokens: 1000, completionTokens: 2000, reasoningTokens: 1500 },
    }),
  );
  const outcome = await r.call({ candidates, messages });
  expect((alpha.requests.at(-1)!.body as { reasoning_effort?: string }).reasoning_effort).toBe('high');
  expect(outcome.reply.usage.reasoningTokens).toBe(1500);
  expect(outcome.costUsd).toBeCloseTo((1000 * 0.01 + 2000 * 0.03) / 1000, 10);
});

test('a prompt over a model’s window is never sent to it: the walk moves on, and cached input is priced at the cached rate', async () => {
  const catalog = catalogFor();
  // alpha-large takes 1,200 tokens, 200 of them for the answer; beta-large (vendor_a) prices cache reads and writes.
  catalog.models = catalog.models.map((m) =>
    m.model === 'alpha-large'
      ? { ...m, context_tokens: 1_200, max_output_tokens: 200 }
      : m.model === 'beta-large'
        ? { ...m, pricing_per_1k: { input: 0.01, output: 0.03, cached_input: 0.001, cache_write: 0.0125 } }
        : m,
  );
  const r = await buildRouter(catalog, everyone, keys, queue, () => undefined);
  const { candidates } = r.resolve({ role: 'L2.architect', budget: 'frontier' });
  expect(candidates.slice(0, 2).map((c) => c.model)).toEqual(['alpha-large', 'beta-large']);
  beta.enqueue(
    anthropicReplies.text('read it', {
      model: 'beta-large',
      usage: { inputTokens: 200, cacheReadTokens: 3_000, cacheWriteTokens: 100, outputTokens: 50 },
    }),
  );
  const before = requestsTo(alpha, 'alpha-large');
  const long = [{ role: 'user' as const, content: 'x'.repeat(6_000) }];

  const outcome = await r.call({ candidates, messages: long });

  expect(requestsTo(alpha, 'alpha-large')).toBe(before);
  // The walk tries the same provider's next model first (unscripted here: a 500), then beta.
  expect(outcome.hops[0]).toMatchObject({
    from_model: 'alpha-large',
    to_model: 'alpha-medium',
    reason: 'context_window_exceeded',
  });
  expect(outcome.candidateModel).toBe('beta-large');
  expect(outcome.reply.usage).toMatchObject({ inputTokens: 3_300, cachedInputTokens: 3_000, cacheWriteTokens: 100 });
  expect(outcome.costUsd).toBeCloseTo((200 * 0.01 + 3_000 * 0.001 + 100 * 0.0125 + 50 * 0.03) / 1000, 10);
  expect(outcome.prompt.estimatedTokens).toBeGreaterThanOrEqual(2_000);
});

test('GET /v1/models data: every model with configured and allowed flags', async () => {
  const listed = await (await router({ providers: { alpha: {} } }, { ALPHA_KEY: 'a' })).list();
  expect(listed.find((m) => m.model === 'alpha-large')).toMatchObject({ configured: true, allowed: true });
  expect(listed.find((m) => m.model === 'beta-large')).toMatchObject({ configured: false, allowed: false });
});

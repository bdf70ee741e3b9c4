import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { loadCatalog, loadTeamControls } from '../../routing/catalog/load';
import type { Catalog, TeamControls } from '../../routing/catalog/types';
import { shippedModelFiles } from '../../routing/config';
import { buildRouter } from '../../routing/open-models';
import { remainingAfter } from '../../routing/walk-order';
import { anthropicErrors, anthropicReplies, startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic';
import { startFakeGemini, type FakeGemini } from '../fakes/fake-gemini';
import { openAIReplies, startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * A job on the SHIPPED catalog and team controls, with every vendor's base URL pointed at a local
 * server on that vendor's wire and every key set: what routing_decision shows is the real candidate list.
 */
let infra: Infrastructure;
let openai: FakeOpenAI;
let anthropic: FakeAnthropic;
let gemini: FakeGemini;
let shipped: Catalog;
let controls: TeamControls;
let keel: KeelUnderTest;
const providerEnv = {
  OPENAI_API_KEY: 'sk-test',
  OPENROUTER_API_KEY: 'or-test',
  GROQ_API_KEY: 'gq-test',
  ANTHROPIC_API_KEY: 'ant-test',
  GEMINI_API_KEY: 'gm-test',
};

function pointedAtFakes(catalog: Catalog): Catalog {
  const providers = Object.fromEntries(
    Object.entries(catalog.providers).map(([name, entry]) => {
      const base =
        entry.wire === 'vendor_a' ? anthropic.baseUrl : entry.wire === 'vendor_b' ? gemini.origin : openai.baseUrl;
      return [name, name === 'demo' ? entry : { ...entry, base_url: base }];
    }),
  );
  return { ...catalog, providers };
}

beforeAll(async () => {
  infra = await startInfrastructure();
  [openai, anthropic, gemini] = await Promise.all([startFakeOpenAI(), startFakeAnthropic(), startFakeGemini()]);
  const files = shippedModelFiles();
  shipped = await loadCatalog(files.catalog);
  controls = await loadTeamControls(files.controls);
  keel = await startKeel({ ...infra, catalog: pointedAtFakes(shipped), controls, providerEnv });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await Promise.all([openai?.close(), anthropic?.close(), gemini?.close()]);
  await infra?.close();
});

test('a frontier job routes through the shipped catalog: real candidates, a model_fallback hop, one model per tool loop', async () => {
  const expected = await buildRouter(shipped, controls, providerEnv, infra.queue, () => undefined);
  const l2 = expected.resolve({ role: 'L2.architect', budget: 'frontier' });
  const l4 = expected.resolve({ role: 'L4.executor', budget: 'frontier', requirements: ['code_generation'] });
  const opus = l2.candidates[0]!.model;
  // After the first model fails, the walk tries the same provider's next model first.
  const next = remainingAfter(l2.candidates[0]!, l2.candidates.slice(1))[0]!;
  expect(l2.candidates.slice(0, 5).map((c) => c.tier)).toEqual([
    'frontier',
    'frontier',
    'frontier',
    'frontier',
    'frontier',
  ]);
  expect(new Set(l2.candidates.slice(0, 5).map((c) => c.provider)).size).toBeGreaterThan(1);

  // L1 and L3 get the cheap band (OpenAI first); L2 and L4 the frontier band (Anthropic first). The build
  // scenario (L1, L2, L4, L3) chains to review (L2.qa_lead, L4, L3).
  const executor = l4.candidates[0]!.model;
  const writeFile = (content: string) =>
    anthropicReplies.blocks(
      [{ type: 'tool_use', id: `toolu_${content.length}`, name: 'write_file', input: { path: 'hello.md', content } }],
      { model: executor },
    );
  openai.enqueue(
    openAIReplies.text('Plan: 1. write hello.md', { model: 'gpt-4o-mini' }),
    openAIReplies.text('{"verdict":"pass","deltas":[]}', { model: 'gpt-4o-mini' }),
    openAIReplies.text('{"verdict":"pass","deltas":[]}', { model: 'gpt-4o-mini' }),
  );
  anthropic.enqueue(
    anthropicReplies.error(529, anthropicErrors.overloaded()),
    anthropicReplies.blocks(
      [
        { type: 'thinking', thinking: 'The plan names one file; one task covers it.' },
        { type: 'text', text: 'Task: write hello.md. Acceptance: it greets.' },
      ],
      { model: next.model },
    ),
    writeFile('# Hello\n'),
    anthropicReplies.text('Wrote hello.md.', { model: executor }),
    anthropicReplies.text('Task: add a closing line. Acceptance: hello.md ends with a sign-off.', { model: opus }),
    writeFile('# Hello\n\nBye.\n'),
    anthropicReplies.text('Wrote hello.md.', { model: executor }),
  );

  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write hello.md that greets the reader', metadata: { model_tier: 'frontier' } }),
  });
  const { job_id: jobId } = (await response.json()) as { job_id: string };
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  expect(events.at(-1)?.kind).toBe('final');

  const decision = (role: string) =>
    events.find((e) => e.kind === 'routing_decision' && e.agent_role === role)!.payload;
  const pairs = (cs: Array<{ provider: string; model: string }>) => cs.map((c) => `${c.provider}/${c.model}`);
  expect(pairs(decision('L2.architect').model_candidates as Array<{ provider: string; model: string }>)).toEqual(
    pairs(l2.candidates),
  );
  expect(decision('L2.architect')).toMatchObject({
    provider: 'anthropic',
    model: opus,
    tier: 'frontier',
    offline: false,
  });
  expect(decision('L1.team_lead')).toMatchObject({ tier: 'cheap' });

  const fallback = events.find((e) => e.kind === 'model_fallback');
  expect(fallback).toMatchObject({
    agent_role: 'L2.architect',
    payload: { from_model: opus, to_model: next.model, to_provider: next.provider, reason: 'provider_unavailable' },
  });
  // The vendor's reasoning summary reaches the stream as a `thinking` event of the level.
  expect(events.find((e) => e.kind === 'thinking')).toMatchObject({
    agent_role: 'L2.architect',
    payload: { summary: 'The plan names one file; one task covers it.' },
  });
  const finished = (role: string) => events.find((e) => e.kind === 'level_finished' && e.agent_role === role)!.payload;
  expect(finished('L2.architect')).toMatchObject({ provider: 'anthropic', model: next.model });

  // The executor's tool loop: both turns on the model that answered the first one.
  const executorCalls = anthropic.requests.slice(-2).map((r) => r.body.model);
  expect(executorCalls).toEqual([executor, executor]);
  const final = events.at(-1)!.payload;
  expect(final.created_files).toEqual(['hello.md']);
  expect(final.cost_usd as number).toBeGreaterThan(0);

  // Prompt and completion tokens as the vendors reported them: per level, summed over every level run (retries too)
  // into the job's final and its row.
  const levels = events.filter((e) => e.kind === 'level_finished');
  const sum = (field: string) => levels.reduce((total, e) => total + Number(e.payload[field] ?? 0), 0);
  for (const level of levels.filter((e) => e.payload.model !== undefined)) {
    expect(level.payload.prompt_tokens as number).toBeGreaterThan(0);
    expect(level.payload.completion_tokens as number).toBeGreaterThan(0);
  }
  expect(final).toMatchObject({ prompt_tokens: sum('prompt_tokens'), completion_tokens: sum('completion_tokens') });
  const row = await infra.db.pool.query<{ prompt_tokens: string; completion_tokens: string }>(
    'SELECT prompt_tokens, completion_tokens FROM job_runs WHERE job_id = $1',
    [jobId],
  );
  expect(row.rows[0]).toEqual({
    prompt_tokens: String(sum('prompt_tokens')),
    completion_tokens: String(sum('completion_tokens')),
  });
});

test('a provider removed from team controls never appears in a level’s candidates', async () => {
  const withoutAnthropic: TeamControls = {
    providers: Object.fromEntries(Object.entries(controls.providers).filter(([name]) => name !== 'anthropic')),
  };
  const router = await buildRouter(shipped, withoutAnthropic, providerEnv, infra.queue, () => undefined);
  for (const budget of ['free', 'cheap', 'frontier']) {
    for (const role of ['L1.team_lead', 'L2.architect', 'L3.verifier', 'L4.executor']) {
      expect(router.resolve({ role, budget }).candidates.some((c) => c.provider === 'anthropic')).toBe(false);
    }
  }
});

test('GET /v1/models lists every catalog model with price, live free quota, configured and allowed', async () => {
  const response = await fetch(`${keel.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${keel.token}` } });
  expect(response.status).toBe(200);
  const { models } = (await response.json()) as {
    models: Array<{
      provider: string;
      model: string;
      configured: boolean;
      allowed: boolean;
      quota: unknown;
      pricing_per_1k: unknown;
      display_name: string;
    }>;
  };
  expect(models).toHaveLength(shipped.models.length);
  const find = (provider: string) => models.find((m) => m.provider === provider)!;
  expect(find('anthropic')).toMatchObject({ configured: true, allowed: true, quota: null });
  expect(find('anthropic').pricing_per_1k).toEqual(expect.objectContaining({ input: expect.any(Number) as number }));
  // The prompt-cache prices the catalog carries are listed too, so a person can see what a cached read costs.
  const priced = models.find((m) => m.model === 'gpt-5')!;
  const gpt5 = shipped.models.find((m) => m.model === 'gpt-5')!;
  expect(priced.pricing_per_1k).toEqual(gpt5.pricing_per_1k);
  expect(priced.pricing_per_1k).toHaveProperty('cached_input');
  expect(find('local')).toMatchObject({ allowed: false });
  expect(find('google_free')).toMatchObject({ configured: false, quota: { rpm: { used: 0, limit: 10 } } });
  expect(find('demo')).toMatchObject({ display_name: 'offline demo model', configured: true });
});

test('a call that would pass the budget pauses the job before it is made; "stop" ends it with budget_exceeded', async () => {
  const capped = await startKeel({
    ...infra,
    catalog: pointedAtFakes(shipped),
    controls,
    providerEnv,
    jobBudgetUsd: 0.0001,
  });
  try {
    await capped.startWorker();
    const calls = openai.requests.length;
    const response = await fetch(`${capped.baseUrl}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${capped.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Write hello.md that greets the reader' }),
    });
    const { job_id: jobId } = (await response.json()) as { job_id: string };
    // The team lead's first call on gpt-4o-mini is estimated from its prompt and the catalog's price at more than
    // the $0.0001 budget: the job pauses on the submitter's decision instead of making it.
    const events: EventEnvelope[] = [];
    for await (const event of streamJobEvents({ baseUrl: capped.baseUrl, token: capped.token, jobId })) {
      events.push(event);
      if (event.kind === 'ask_user') break;
    }
    const exceeded = events.find((e) => e.kind === 'budget_exceeded');
    expect(exceeded?.payload).toMatchObject({ scope: 'job', limit_usd: 0.0001, total_usd: 0 });
    expect(exceeded?.payload.estimate_usd as number).toBeGreaterThan(0.0001);
    expect(openai.requests.length).toBe(calls);
    const callId = exceeded!.payload.call_id as string;
    const resumed = await fetch(`${capped.baseUrl}/v1/jobs/${jobId}/resume`, {
      method: 'POST',
      headers: { authorization: `Bearer ${capped.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ call_id: callId, answer: 'stop' }),
    });
    expect(resumed.status).toBe(200);
    const rest: EventEnvelope[] = [];
    for await (const event of streamJobEvents({ baseUrl: capped.baseUrl, token: capped.token, jobId }))
      rest.push(event);
    expect(rest.at(-1)).toMatchObject({ kind: 'error', payload: { code: 'budget_exceeded', retryable: false } });
    expect(openai.requests.length).toBe(calls);
  } finally {
    await capped.close();
  }
});

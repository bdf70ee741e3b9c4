import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import {
  anthropicErrors,
  anthropicReplies,
  startFakeAnthropic,
  type FakeAnthropic,
} from '../test/fakes/fake-anthropic';
import { runModelsCommand } from './models';

/** `keel models doctor` walks the spec's diagnosis order and stops at the first failing step; `check` names model and field. */
let anthropic: FakeAnthropic;
let dir: string;

const row = {
  provider: 'anthropic',
  model: 'claude-haiku-4-5-20251001',
  wire: 'vendor_a',
  features: ['tool_use'],
  cost_tier: 'cheap',
  pricing_per_1k: { input: 0.001, output: 0.005 },
  context_tokens: 200000,
  max_output_tokens: 8192,
};

async function files(options: { controls?: Record<string, unknown>; models?: unknown[] } = {}) {
  const catalog = path.join(dir, `catalog-${Math.random().toString(36).slice(2)}.yaml`);
  const controls = path.join(dir, `controls-${Math.random().toString(36).slice(2)}.yaml`);
  await fs.writeFile(
    catalog,
    stringify({
      providers: { anthropic: { wire: 'vendor_a', base_url: anthropic.baseUrl, auth: { env: 'ANTHROPIC_API_KEY' } } },
      models: options.models ?? [row],
    }),
  );
  await fs.writeFile(controls, stringify({ providers: options.controls ?? { anthropic: {} } }));
  return { MODEL_CATALOG_PATH: catalog, TEAM_CONTROLS_PATH: controls };
}

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runModelsCommand(args, env, (line = '') => lines.push(line));
  return { code, lines };
}

beforeAll(async () => {
  anthropic = await startFakeAnthropic();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-models-cli-'));
});

afterAll(async () => {
  await anthropic.close();
  await fs.rm(dir, { recursive: true, force: true });
});

test('doctor stops at step 2 when the provider has no key, naming the variable to set', async () => {
  const { code, lines } = await run(['doctor', 'anthropic'], await files());
  expect(code).toBe(1);
  expect(lines.at(-1)).toBe('✗ 2. not configured: set ANTHROPIC_API_KEY');
});

test('doctor stops at step 3 when team controls leave the provider out', async () => {
  const { code, lines } = await run(['doctor', 'anthropic'], {
    ...(await files({ controls: {} })),
    ANTHROPIC_API_KEY: 'k',
  });
  expect(code).toBe(1);
  expect(lines.at(-1)).toBe('✗ 3. anthropic is not in team controls');
});

test('doctor stops at step 4 when no permitted model has a feature a scenario level requires', async () => {
  const env = { ...(await files({ models: [{ ...row, features: ['vision'] }] })), ANTHROPIC_API_KEY: 'k' };
  const { code, lines } = await run(['doctor', 'anthropic'], env);
  expect(code).toBe(1);
  expect(lines.at(-1)).toMatch(/^✗ 4\. no permitted model can serve L1\.team_lead: .*claude-haiku.*tool_use/);
});

test('doctor stops at step 5 when the account is unfunded, read from the vendor’s error body', async () => {
  anthropic.enqueue(anthropicReplies.error(400, anthropicErrors.creditBalanceTooLow()));
  const { code, lines } = await run(['doctor', 'anthropic'], { ...(await files()), ANTHROPIC_API_KEY: 'k' });
  expect(code).toBe(1);
  expect(lines.at(-1)).toMatch(/^✗ 5\. anthropic\/claude-haiku-4-5-20251001: the account is not funded/);
});

test('doctor passes all five steps when a cheap live call answers', async () => {
  anthropic.enqueue(anthropicReplies.text('ok', { model: row.model }));
  const { code, lines } = await run(['doctor', 'anthropic'], { ...(await files()), ANTHROPIC_API_KEY: 'k' });
  expect(code).toBe(0);
  expect(lines.map((l) => l.slice(0, 4))).toEqual(['✓ 1.', '✓ 2.', '✓ 3.', '✓ 4.', '✓ 5.']);
});

test('check exits 1 naming the model and the field of a bad catalog row', async () => {
  const { pricing_per_1k: _dropped, ...unpriced } = row;
  const { code, lines } = await run(['check'], await files({ models: [unpriced] }));
  expect(code).toBe(1);
  expect(lines.join('\n')).toMatch(/anthropic\/claude-haiku-4-5-20251001: pricing_per_1k/);
});

test('resolve --json prints the ordered candidates and whether the band was dropped', async () => {
  const { code, lines } = await run(['resolve', '--role', 'L4.executor', '--budget', 'cheap', '--json'], {
    ...(await files()),
    ANTHROPIC_API_KEY: 'k',
  });
  expect(code).toBe(0);
  const decision = JSON.parse(lines.join('\n')) as { candidates: Array<{ model: string }>; bandDropped: boolean };
  expect(decision.candidates.map((c) => c.model)).toEqual([row.model]);
  expect(decision.bandDropped).toBe(false);
});

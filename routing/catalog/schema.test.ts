import { checkCatalog, checkTeamControls } from './schema';
import type { Catalog, ModelRow } from './types';

/** A valid two-provider catalog; each test breaks one thing in a copy. */
function catalog(): Catalog {
  return {
    providers: {
      openai: { wire: 'chat_compat', base_url: 'https://api.openai.com/v1', auth: { env: 'OPENAI_API_KEY' } },
      local: { wire: 'chat_compat', base_url: 'http://127.0.0.1:11434/v1' },
    },
    models: [
      {
        provider: 'openai',
        model: 'gpt-5',
        wire: 'chat_compat',
        features: ['tool_use', 'reasoning'],
        cost_tier: 'frontier',
        pricing_per_1k: { input: 0.00125, output: 0.01 },
        context_tokens: 400000,
        max_output_tokens: 128000,
        effort: { low: { reasoning_effort: 'low' }, high: { reasoning_effort: 'high' } },
        preference: 1,
        checked: '2026-11-21',
      },
      {
        provider: 'local',
        model: 'llama3.1:8b',
        wire: 'chat_compat',
        features: ['tool_use'],
        cost_tier: 'free',
        context_tokens: 8192,
        max_output_tokens: 4096,
        quota: { rpm: 600, tpm: 1000000, rpd: 100000 },
      },
    ],
  };
}

function withRow(patch: (row: ModelRow) => void, index = 0): unknown {
  const value = catalog();
  patch(value.models[index]!);
  return value;
}

function problemsOf(input: unknown): string[] {
  const checked = checkCatalog(input);
  return checked.ok ? [] : checked.problems;
}

describe('catalog schema', () => {
  test('accepts a valid catalog and returns it unchanged', () => {
    expect(checkCatalog(catalog())).toEqual({ ok: true, value: catalog() });
  });

  test('rejects a non-free model without a price, naming the model and the field', () => {
    const input = withRow((row) => delete row.pricing_per_1k);
    expect(problemsOf(input)).toEqual(['models[0] openai/gpt-5: pricing_per_1k is required for a non-free model']);
  });

  test('rejects a free model without a quota, naming the model and the field', () => {
    const input = withRow((row) => delete row.quota, 1);
    expect(problemsOf(input)).toEqual([
      'models[1] local/llama3.1:8b: quota (rpm, tpm, rpd) is required for a free model',
    ]);
  });

  test('rejects an embedding model without dimensions, naming the model and the field', () => {
    const input = withRow((row) => {
      row.model = 'text-embedding-3-small';
      row.features = ['embedding'];
      delete row.effort;
    });
    expect(problemsOf(input)).toEqual([
      'models[0] openai/text-embedding-3-small: dimensions is required for a model with feature embedding',
    ]);
  });

  test('rejects a thinking budget at or above max_output_tokens, naming the model and the field', () => {
    const at = withRow((row) => (row.thinking = { budget_tokens: 128000 }));
    expect(problemsOf(at)).toEqual([
      'models[0] openai/gpt-5: thinking.budget_tokens (128000) must be below max_output_tokens (128000)',
    ]);
    const above = withRow((row) => (row.thinking = { budget_tokens: 200000 }));
    expect(problemsOf(above)).toHaveLength(1);
    expect(problemsOf(withRow((row) => (row.thinking = { budget_tokens: 127999 })))).toEqual([]);
  });

  test('rejects effort on a model without feature reasoning, naming the model and the field', () => {
    const input = withRow((row) => (row.features = ['tool_use']));
    expect(problemsOf(input)).toEqual(['models[0] openai/gpt-5: effort requires feature reasoning']);
  });

  test('rejects a model whose provider is not declared, naming the model and the field', () => {
    const input = withRow((row) => (row.provider = 'anthropic'));
    expect(problemsOf(input)).toEqual([
      'models[0] anthropic/gpt-5: provider "anthropic" is not declared under providers',
    ]);
  });

  test("rejects a model whose wire differs from its provider's wire, naming the model and the field", () => {
    const input = withRow((row) => (row.wire = 'vendor_a'));
    expect(problemsOf(input)).toEqual([
      'models[0] openai/gpt-5: wire vendor_a differs from the wire of provider "openai" (chat_compat)',
    ]);
  });

  test('rejects a duplicate (provider, model) row, naming both rows', () => {
    const input = catalog();
    input.models.push({ ...input.models[0]! });
    expect(problemsOf(input)).toEqual([
      'models[2] openai/gpt-5: model duplicates models[0]: each (provider, model) pair appears once',
    ]);
  });

  test('the same model id under two providers is not a duplicate', () => {
    const input = catalog();
    input.models.push({ ...input.models[1]!, model: 'gpt-5' });
    expect(problemsOf(input)).toEqual([]);
  });

  test('rejects a provider auth with neither env nor secret_id', () => {
    const input = catalog();
    input.providers.openai!.auth = {};
    expect(problemsOf(input)).toEqual([
      'providers.openai: auth needs env or secret_id (omit auth for a provider that takes no key)',
    ]);
  });

  test('accepts auth by secret id alone, and a provider without auth', () => {
    const input = catalog();
    input.providers.openai!.auth = { secret_id: 'keel/openai' };
    expect(problemsOf(input)).toEqual([]);
  });

  test('rejects an effort rung that is not on the ladder, naming the model', () => {
    const input = withRow((row) => (row.effort = { extreme: { reasoning_effort: 'high' } } as ModelRow['effort']));
    expect(problemsOf(input)).toEqual(['models[0] openai/gpt-5: unknown field "effort.extreme"']);
  });

  test('rejects a wrongly typed field, naming the model and the field', () => {
    const input = withRow((row) => (row.cost_tier = 'premium' as ModelRow['cost_tier']));
    expect(problemsOf(input)).toHaveLength(1);
    expect(problemsOf(input)[0]).toMatch(/^models\[0\] openai\/gpt-5: cost_tier: /);
  });

  describe('rejects unknown fields at every level, naming where they are', () => {
    // Object.assign adds a field the types do not know, as a hand-edited file would.
    const cases: Array<[string, (c: Catalog) => void, string]> = [
      ['top level', (c) => Object.assign(c, { version: 2 }), 'catalog: unknown field "version"'],
      [
        'provider entry',
        (c) => Object.assign(c.providers.openai!, { region: 'us' }),
        'providers.openai: unknown field "region"',
      ],
      [
        'provider auth',
        (c) => Object.assign(c.providers.openai!.auth!, { header: 'x' }),
        'providers.openai: unknown field "auth.header"',
      ],
      ['model row', (c) => Object.assign(c.models[0]!, { price: 1 }), 'models[0] openai/gpt-5: unknown field "price"'],
      [
        'pricing',
        (c) => Object.assign(c.models[0]!.pricing_per_1k!, { cached: 0.1 }),
        'models[0] openai/gpt-5: unknown field "pricing_per_1k.cached"',
      ],
      [
        'quota',
        (c) => Object.assign(c.models[1]!.quota!, { tpd: 5 }),
        'models[1] local/llama3.1:8b: unknown field "quota.tpd"',
      ],
      [
        'thinking',
        (c) => (c.models[0]!.thinking = Object.assign({ budget_tokens: 1024 }, { type: 'enabled' })),
        'models[0] openai/gpt-5: unknown field "thinking.type"',
      ],
    ];
    test.each(cases)('%s', (_level, patch, expected) => {
      const input = catalog();
      patch(input);
      expect(problemsOf(input)).toEqual([expected]);
    });
  });

  test('lists every problem at once, one line each, including cross-row ones next to a malformed row', () => {
    const input = catalog();
    Object.assign(input.models[0]!, { context_tokens: 'lots' });
    input.models[1]!.provider = 'ollama';
    delete input.models[1]!.quota;
    const problems = problemsOf(input);
    expect(problems).toHaveLength(3);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^models\[0\] openai\/gpt-5: context_tokens: /),
        'models[1] ollama/llama3.1:8b: quota (rpm, tpm, rpd) is required for a free model',
        'models[1] ollama/llama3.1:8b: provider "ollama" is not declared under providers',
      ]),
    );
  });

  test('rejects a document that is not a catalog', () => {
    expect(problemsOf(null)).toEqual([expect.stringMatching(/^catalog: /)]);
    expect(problemsOf({ providers: {} })).toEqual([expect.stringMatching(/^models: /)]);
  });
});

describe('team controls schema', () => {
  test('accepts providers with and without model patterns', () => {
    const controls = { providers: { openai: {}, openrouter: { models: ['*:free', 'openai/gpt-4o-mini'] } } };
    expect(checkTeamControls(controls)).toEqual({ ok: true, value: controls });
  });

  test('rejects unknown fields in the file and in a provider entry', () => {
    expect(checkTeamControls({ providers: {}, teams: [] })).toEqual({
      ok: false,
      problems: ['team controls: unknown field "teams"'],
    });
    expect(checkTeamControls({ providers: { openai: { model: ['gpt-5'] } } })).toEqual({
      ok: false,
      problems: ['providers.openai: unknown field "model"'],
    });
  });

  test('rejects a provider entry that is not an object', () => {
    const checked = checkTeamControls({ providers: { openai: null } });
    expect(checked.ok).toBe(false);
    expect(checked.ok ? [] : checked.problems).toEqual([expect.stringMatching(/^providers\.openai: /)]);
  });
});

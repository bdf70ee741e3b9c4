import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../config/paths';
import { DEMO_MODEL_DISPLAY_NAME, DEMO_MODEL_ID } from '../demo-model/respond';
import { ConfigFileError } from '../../config/config-file';
import { allowedByControls } from './controls';
import {
  catalogIssues,
  isConfigured,
  loadCatalog,
  loadTeamControls,
  resolveProviderKey,
  teamControlsIssues,
} from './load';
import type { Catalog, ProviderEntry, TeamControls } from './types';
import { createSecretStore, type SecretStore } from '../../secrets/store';

const shippedDir = path.join(projectRoot(), 'config', 'models');
const shippedCatalog = path.join(shippedDir, 'catalog.yaml');
const shippedControls = path.join(shippedDir, 'team-controls.yaml');

/** The vendors most bands lead with; the frontier band must keep a model elsewhere as an escape path. */
const PRIMARY_VENDORS = ['openai', 'anthropic'];

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-catalog-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

async function loadError(load: Promise<unknown>): Promise<ConfigFileError> {
  try {
    await load;
  } catch (err) {
    if (err instanceof ConfigFileError) return err;
    throw err;
  }
  throw new Error('expected a ConfigFileError');
}

const smallCatalog = {
  providers: { local: { wire: 'chat_compat', base_url: 'http://127.0.0.1:11434/v1' } },
  models: [
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

const smallCatalogYaml = `
providers:
  local: { wire: chat_compat, base_url: 'http://127.0.0.1:11434/v1' }
models:
  - provider: local
    model: llama3.1:8b
    wire: chat_compat
    features: [tool_use]
    cost_tier: free
    context_tokens: 8192
    max_output_tokens: 4096
    quota: { rpm: 600, tpm: 1000000, rpd: 100000 }
`;

describe('the shipped model files', () => {
  let catalog: Catalog;
  let controls: TeamControls;
  beforeAll(async () => {
    catalog = await loadCatalog(shippedCatalog);
    controls = await loadTeamControls(shippedControls);
  });

  test('the shipped catalog and team controls load cleanly', () => {
    expect(catalogIssues(fs.readFileSync(shippedCatalog, 'utf8'), 'yaml')).toEqual([]);
    expect(teamControlsIssues(fs.readFileSync(shippedControls, 'utf8'), 'yaml')).toEqual([]);
    expect(catalog.models.length).toBeGreaterThan(10);
  });

  test('the shipped frontier band has five models, strongest first, one on a non-primary vendor', () => {
    const frontier = catalog.models
      .filter((row) => row.cost_tier === 'frontier')
      .sort((a, b) => (a.preference ?? Infinity) - (b.preference ?? Infinity));
    expect(frontier).toHaveLength(5);
    expect(frontier.map((row) => row.preference)).toEqual([1, 2, 3, 4, 5]);
    expect(frontier.some((row) => !PRIMARY_VENDORS.includes(row.provider))).toBe(true);
  });

  test('every shipped free row has a quota and every other row a price and a checked date', () => {
    for (const row of catalog.models) {
      if (row.cost_tier === 'free') expect(row.quota).toBeDefined();
      else expect(row.pricing_per_1k).toBeDefined();
      expect(row.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  test('every shipped provider but the keyless local server is permitted by the shipped team controls', () => {
    for (const row of catalog.models) {
      expect(allowedByControls(controls, row.provider, row.model)).toBe(row.provider !== 'local');
    }
  });

  test('the shipped catalog lists the offline demo model as a keyless free model', async () => {
    const demo = catalog.models.find((row) => row.model === DEMO_MODEL_ID);
    expect(demo).toMatchObject({ provider: 'demo', cost_tier: 'free', display_name: DEMO_MODEL_DISPLAY_NAME });
    expect(demo?.features).toContain('tool_use');
    expect(catalog.providers.demo?.auth).toBeUndefined();
    expect(await isConfigured(catalog.providers.demo!, {})).toBe(true);
  });
});

describe('loading a catalog file', () => {
  test('a missing file raises instead of falling back to defaults', async () => {
    const file = path.join(tmp, 'absent.yaml');
    const err = await loadError(loadCatalog(file));
    expect(err.message).toBe(`${file}: cannot load the model catalog\n  file not found`);
    await expect(loadTeamControls(path.join(tmp, 'absent.json'))).rejects.toThrow(ConfigFileError);
  });

  test('a relative path is refused, saying it must be absolute', async () => {
    const err = await loadError(loadCatalog('config/models/catalog.yaml'));
    expect(err.message.split('\n')[0]).toBe('config/models/catalog.yaml: cannot load the model catalog');
    expect(err.problems).toEqual(['the path must be absolute (got "config/models/catalog.yaml")']);
    await expect(loadTeamControls('team-controls.yaml')).rejects.toThrow(/must be absolute/);
  });

  test('a file that is neither YAML nor JSON is refused', async () => {
    const file = write('catalog.toml', 'providers = {}');
    await expect(loadCatalog(file)).rejects.toThrow(/must end in \.yaml, \.yml or \.json/);
  });

  test('YAML (.yaml and .yml) and JSON load to the same catalog', async () => {
    const fromYaml = await loadCatalog(write('small.yaml', smallCatalogYaml));
    const fromYml = await loadCatalog(write('small.yml', smallCatalogYaml));
    const fromJson = await loadCatalog(write('small.json', JSON.stringify(smallCatalog)));
    expect(fromYaml).toEqual(smallCatalog);
    expect(fromYml).toEqual(smallCatalog);
    expect(fromJson).toEqual(smallCatalog);
  });

  test('schema problems are thrown as one ConfigFileError: the file first, then one line per problem', async () => {
    const { quota: _quota, ...row } = smallCatalog.models[0]!;
    const broken = { ...smallCatalog, models: [{ ...row, burst: 3 }] };
    const file = write('broken.json', JSON.stringify(broken));
    const err = await loadError(loadCatalog(file));
    expect(err.file).toBe(file);
    expect(err.message.split('\n')).toEqual([
      `${file}: cannot load the model catalog`,
      '  models[0] local/llama3.1:8b: unknown field "burst"',
      '  models[0] local/llama3.1:8b: quota (rpm, tpm, rpd) is required for a free model',
    ]);
  });

  test('a YAML syntax error is reported on one line after the file', async () => {
    const file = write('bad-syntax.yaml', 'providers:\n  local: { wire: chat_compat\nmodels: []\n');
    const err = await loadError(loadCatalog(file));
    expect(err.message.split('\n')[0]).toBe(`${file}: cannot load the model catalog`);
    expect(err.problems.length).toBeGreaterThan(0);
    for (const problem of err.problems) expect(problem).toMatch(/^YAML: [^\n]+$/);
  });

  test('a duplicated provider key in YAML is an error, not a silent override', () => {
    const text = 'providers:\n  local: { wire: chat_compat, base_url: "http://a/v1" }\n  local: {}\nmodels: []\n';
    expect(catalogIssues(text, 'yaml')).toEqual([expect.stringMatching(/^YAML: Map keys must be unique/)]);
  });

  test('a JSON syntax error is reported on one line', () => {
    expect(catalogIssues('{"providers": {', 'json')).toEqual([expect.stringMatching(/^JSON: /)]);
  });

  test('an empty file is reported as empty', async () => {
    const err = await loadError(loadTeamControls(write('empty.yaml', '\n')));
    expect(err.problems).toEqual(['the file is empty']);
  });

  test('catalogIssues returns the problem lines without throwing, and none for a valid text', () => {
    expect(catalogIssues(smallCatalogYaml, 'yaml')).toEqual([]);
    expect(catalogIssues(smallCatalogYaml.replace('cost_tier: free', 'cost_tier: cheap'), 'yaml')).toEqual([
      'models[0] local/llama3.1:8b: pricing_per_1k is required for a non-free model',
    ]);
  });

  test('team controls load from YAML and JSON', async () => {
    const controls = { providers: { local: {}, openrouter: { models: ['*:free'] } } };
    const yaml = 'providers:\n  local: {}\n  openrouter: { models: ["*:free"] }\n';
    await expect(loadTeamControls(write('controls.yaml', yaml))).resolves.toEqual(controls);
    await expect(loadTeamControls(write('controls.json', JSON.stringify(controls)))).resolves.toEqual(controls);
  });
});

describe('allowedByControls', () => {
  const controls: TeamControls = {
    providers: {
      openai: {},
      openrouter: { models: ['*:free', 'openai/gpt-4o-mini'] },
      groq: { models: ['llama-3.*-instant'] },
      anthropic: { models: ['claude-*-4-5-*'] },
      google: { models: [] },
    },
  };

  test('a provider omitted from the controls is not allowed', () => {
    expect(allowedByControls(controls, 'mistral', 'mistral-large')).toBe(false);
    // Names inherited from Object.prototype are not providers.
    expect(allowedByControls(controls, 'constructor', 'x')).toBe(false);
  });

  test('a provider without a models list allows every model', () => {
    expect(allowedByControls(controls, 'openai', 'gpt-5')).toBe(true);
  });

  test('with a models list, a model is allowed when some pattern matches its whole id', () => {
    expect(allowedByControls(controls, 'openrouter', 'meta-llama/llama-3.3-70b-instruct:free')).toBe(true);
    expect(allowedByControls(controls, 'openrouter', 'openai/gpt-4o-mini')).toBe(true);
    expect(allowedByControls(controls, 'openrouter', 'openai/gpt-4o-mini-2024')).toBe(false);
    expect(allowedByControls(controls, 'openrouter', 'anthropic/claude-sonnet-4.5')).toBe(false);
    expect(allowedByControls(controls, 'groq', 'llama-3.1-8b-instant')).toBe(true);
    expect(allowedByControls(controls, 'groq', 'llama-3.3-70b-versatile')).toBe(false);
    expect(allowedByControls(controls, 'anthropic', 'claude-opus-4-5-20251101')).toBe(true);
    expect(allowedByControls(controls, 'anthropic', 'claude-opus-4-20250514')).toBe(false);
  });

  test('only * is special in a pattern', () => {
    const dotted: TeamControls = { providers: { local: { models: ['llama3.1:8b', 'qwen?'] } } };
    expect(allowedByControls(dotted, 'local', 'llama3.1:8b')).toBe(true);
    expect(allowedByControls(dotted, 'local', 'llama3x1:8b')).toBe(false);
    expect(allowedByControls(dotted, 'local', 'qwen2')).toBe(false);
    expect(allowedByControls(dotted, 'local', 'qwen?')).toBe(true);
  });

  test('an empty models list allows none of the provider', () => {
    expect(allowedByControls(controls, 'google', 'gemini-2.5-flash')).toBe(false);
  });
});

describe('provider keys', () => {
  const both: ProviderEntry = {
    wire: 'chat_compat',
    base_url: 'https://api.openai.com/v1',
    auth: { env: 'OPENAI_API_KEY', secret_id: 'keel/openai' },
  };
  let dir: string;
  let secrets: SecretStore;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-provider-keys-'));
    fs.mkdirSync(path.join(dir, 'keel'));
    fs.writeFileSync(path.join(dir, 'keel', 'openai'), 'sk-from-store\n');
    secrets = createSecretStore({ dir, ttlMs: 0, fromEnv: false, env: {} });
  });

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the env variable wins over the secrets store', async () => {
    expect(await resolveProviderKey(both, { OPENAI_API_KEY: 'sk-from-env' }, secrets)).toEqual({
      key: 'sk-from-env',
      source: 'env',
    });
  });

  test('an empty env variable falls through to the secrets store', async () => {
    expect(await resolveProviderKey(both, { OPENAI_API_KEY: '' }, secrets)).toEqual({
      key: 'sk-from-store',
      source: 'secret',
    });
    expect(await resolveProviderKey(both, { OPENAI_API_KEY: '  ' }, secrets)).toEqual({
      key: 'sk-from-store',
      source: 'secret',
    });
  });

  test('neither env nor a stored secret resolves to none', async () => {
    expect(await resolveProviderKey({ ...both, auth: { secret_id: 'keel/other' } }, {}, secrets)).toEqual({
      source: 'none',
    });
    expect(await resolveProviderKey(both, {})).toEqual({ source: 'none' });
  });

  test('a provider keyed only in the store resolves from it, and no variable named after the id is read', async () => {
    const storeOnly: ProviderEntry = { ...both, auth: { secret_id: 'keel/openai' } };
    expect(await resolveProviderKey(storeOnly, { OPENAI_API_KEY: 'sk-from-env', 'keel/openai': 'sk-raw' })).toEqual({
      source: 'none',
    });
    expect(await resolveProviderKey(storeOnly, {}, secrets)).toEqual({ key: 'sk-from-store', source: 'secret' });
  });

  test('a provider without auth is configured; one with auth is configured only when a key resolves', async () => {
    const keyless: ProviderEntry = { wire: 'chat_compat', base_url: 'http://127.0.0.1:11434/v1' };
    expect(await resolveProviderKey(keyless, {})).toEqual({ source: 'none' });
    expect(await isConfigured(keyless, {})).toBe(true);
    expect(await isConfigured(both, {})).toBe(false);
    expect(await isConfigured(both, { OPENAI_API_KEY: 'sk' })).toBe(true);
    expect(await isConfigured(both, {}, secrets)).toBe(true);
  });
});

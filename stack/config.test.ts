import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config/parse-env';
import { loadConfig as loadApiConfig } from './api-config';
import { loadConfig as loadStartConfig } from './config';
import { loadConfig as loadIdentityConfig, withSecrets } from './identity-service-config';
import { startStack } from './start';
import { loadConfig as loadWorkerConfig } from './worker-config';

/** The bad variables a ConfigError names, one per line after the first (indented detail lines left out). */
async function badVariables(load: Promise<unknown> | (() => unknown)): Promise<string[]> {
  try {
    await (typeof load === 'function' ? load() : load);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.message
      .split('\n')
      .slice(1)
      .filter((line) => /^ {2}\S/.test(line))
      .map((line) => line.trim().split(':')[0]!)
      .sort();
  }
  throw new Error('the configuration was accepted');
}

const alone = { POSTGRES_DSN: 'postgres://db/keel', TEMPORAL_ADDRESS: 'temporal:7233' };

describe('one config per process', () => {
  test("npm start reports the bad variables of its own, the hub's, team chat's, connectors', identity's and models' slices at once", async () => {
    const env = {
      API_PORT: 'abc',
      KB_EMBED_RETRIES: '-1',
      CONNECTOR_GITHUB_SCHEDULE: 'every hour',
      AUTH_PORT: 'eighty',
      CHATAPP_SIGNING_SECRET_ID: 'chat-signing',
      MODEL_CATALOG_PATH: path.join(os.tmpdir(), 'keel-no-such-catalog.yaml'),
    };
    expect(await badVariables(loadStartConfig(env))).toEqual([
      'API_PORT',
      'AUTH_PORT',
      'CHATAPP_BOT_TOKEN_SECRET_ID',
      'CONNECTOR_GITHUB_SCHEDULE',
      'KB_EMBED_RETRIES',
      'MODEL_CATALOG_PATH',
    ]);
    await expect(loadStartConfig(env)).rejects.toThrow(/^keel start: invalid configuration\n/);
  });

  test('npm start on an empty environment: embedded defaults, the shipped catalog, identity filled in at start', async () => {
    const config = await loadStartConfig({ OPENAI_API_KEY: 'sk-test', UNRELATED_SECRET: 'x' });
    expect(config.stack).toMatchObject({ API_PORT: 3000, POSTGRES_SCHEMA: 'keel' });
    expect(config.kb.EMBEDDING_PROVIDER).toBe('local');
    expect(config.connectors.shared.CONNECTOR_GITHUB_ENABLED).toBe(false);
    expect(config.identity).toMatchObject({
      AUTH_PORT: 8080,
      INGEST_SCHEMA: 'keel',
      AUTHLIB_URL: 'http://localhost:8080',
    });
    expect(config.identity.DATABASE_URL).toBeUndefined();
    expect(config.identity.AUTHLIB_SECRET).toBeUndefined();
    // Only the variables the catalog's providers name are kept from the environment.
    expect(config.models.credentials.OPENAI_API_KEY).toBe('sk-test');
    expect(Object.values(config.models.credentials)).not.toContain('x');
  });

  test("npm start's console slice: the stack's addresses and token unless set, its own variables checked up front", async () => {
    const config = await loadStartConfig({ CONSOLE_PORT: '3200', PUBLIC_ENABLE_PASSWORD_LOGIN: 'false' });
    expect(config.console).toMatchObject({ CONSOLE_PORT: 3200, PUBLIC_ENABLE_PASSWORD_LOGIN: false });
    expect(config.console.IDENTITY_URL).toBeUndefined();
    expect(config.console.CONSOLE_API_TOKEN).toBeUndefined();
    // The identity service trusts the console's origins and lands banned callers on its pending page.
    expect(config.identity.TRUSTED_ORIGINS).toEqual([
      'http://localhost:3000',
      'http://localhost:3200',
      'http://127.0.0.1:3200',
    ]);
    expect(config.identity.BANNED_REDIRECT_URL).toBe('http://localhost:3200/pending');
    expect(
      await badVariables(loadStartConfig({ CONSOLE_PORT: 'x', IDENTITY_URL: 'not a url', API_PORT: 'y' })),
    ).toEqual(['API_PORT', 'CONSOLE_PORT', 'IDENTITY_URL']);
  });

  test('npm start opens nothing when its config is bad: no dev server, no database, not even DATA_DIR', async () => {
    const dataDir = path.join(os.tmpdir(), `keel-bad-config-${process.pid}-${Date.now()}`);
    const lines: string[] = [];
    const start = startStack(
      // A CLI that does not exist: had the config been accepted, the start would fail differently, after DATA_DIR.
      { DATA_DIR: dataDir, TEMPORAL_CLI_PATH: path.join(dataDir, 'temporal'), KB_EMBED_TIMEOUT_MS: 'soon' },
      (line) => lines.push(line),
    );
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(/KB_EMBED_TIMEOUT_MS/);
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(lines).toEqual([]);
  });

  test("the API alone names a missing database and Temporal together with the hub's bad variables", async () => {
    expect(await badVariables(loadApiConfig({ EMBEDDING_PROVIDER: 'openai', API_PORT: 'x' }))).toEqual([
      'API_PORT',
      'POSTGRES_DSN',
      'TELEMETRY_URL',
      'TEMPORAL_ADDRESS',
    ]);
    const config = await loadApiConfig(alone);
    expect(config.api.POSTGRES_DSN).toBe('postgres://db/keel');
  });

  test("a worker refuses an enabled connector's bad settings at start, and keeps a disabled one's for its run", async () => {
    expect(
      await badVariables(
        loadWorkerConfig({ ...alone, CONNECTOR_NOTION_ENABLED: 'true', KB_HUB_DIR: '', DEMO_MODEL_PORT: '-1' }),
      ),
    ).toEqual([
      'CONNECTOR_NOTION_AUTH_SECRET_ID',
      'CONNECTOR_NOTION_DEFAULT_SENSITIVITY',
      'CONNECTOR_NOTION_WORKSPACE_SLUG',
      'DEMO_MODEL_PORT',
    ]);
    const config = await loadWorkerConfig({
      ...alone,
      CONNECTOR_GITHUB_AUTH_SECRET_ID: 'gh-token',
      'gh-token': 'ghp_x',
      KEEL_SECRETS_DIR: '/run/secrets/keel',
    });
    expect(config.connectors.notion).toMatchObject({
      ok: false,
      error: expect.stringContaining('CONNECTOR_NOTION_WORKSPACE_SLUG') as unknown,
    });
    expect(config.connectors.github.ok).toBe(true);
    // Secrets come from the store's directory; a variable named after a secret id is not even kept.
    expect(config.secrets).toEqual({ dir: '/run/secrets/keel', ttlMs: 5_000, fromEnv: false, env: {} });
    expect(JSON.stringify(config)).not.toContain('ghp_x');
  });

  test('the identity service alone lists every required variable it lacks', async () => {
    expect(await badVariables(() => loadIdentityConfig({ AUTHLIB_SECRET: 'short' }))).toEqual([
      'ADMIN_EMAILS',
      'AUTHLIB_COOKIE_DOMAIN',
      'AUTHLIB_SECRET',
      'AUTHLIB_URL',
      'DATABASE_URL',
      'IDP_CLIENT_ID',
      'IDP_ISSUER_URL',
      'TRUSTED_ORIGINS',
    ]);
  });
});

describe("the identity service's secrets come from the secrets store", () => {
  const identityEnv = {
    DATABASE_URL: 'postgres://db/identity',
    AUTHLIB_URL: 'https://auth.example.com',
    AUTHLIB_COOKIE_DOMAIN: 'example.com',
    TRUSTED_ORIGINS: 'https://app.example.com',
    IDP_CLIENT_ID: 'keel',
    IDP_ISSUER_URL: 'https://accounts.example.com',
    ADMIN_EMAILS: '',
  };
  const authlibSecret = 'an authlib secret of at least thirty-two characters';
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-identity-secrets-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function problems(env: NodeJS.ProcessEnv): Promise<string> {
    try {
      await withSecrets(loadIdentityConfig(env));
    } catch (err) {
      if (err instanceof ConfigError) return err.message;
      throw err;
    }
    throw new Error('the configuration was accepted');
  }

  test('a secret value in the environment is refused at start, naming the store file to write instead', async () => {
    const message = await problems({
      ...identityEnv,
      KEEL_SECRETS_DIR: dir,
      AUTHLIB_SECRET: authlibSecret,
      IDP_CLIENT_SECRET: 'client-secret',
      INTERNAL_API_TOKEN: 'x'.repeat(40),
    });
    for (const name of ['AUTHLIB_SECRET', 'IDP_CLIENT_SECRET', 'INTERNAL_API_TOKEN']) {
      expect(message).toContain(
        `${name}: a secret is not read from the environment: put it in the file ${dir}/${name}`,
      );
    }
    // The message says where, never what.
    expect(message).not.toContain(authlibSecret);
  });

  test('read from the store files (ids overridable), each checked as its setting requires', async () => {
    fs.writeFileSync(path.join(dir, 'AUTHLIB_SECRET'), `${authlibSecret}\n`);
    fs.mkdirSync(path.join(dir, 'idp'));
    fs.writeFileSync(path.join(dir, 'idp', 'google'), 'client-secret');
    const env = await withSecrets(
      loadIdentityConfig({ ...identityEnv, KEEL_SECRETS_DIR: dir, IDP_CLIENT_SECRET_ID: 'idp/google' }),
    );
    expect([env.AUTHLIB_SECRET, env.IDP_CLIENT_SECRET, env.INTERNAL_API_TOKEN]).toEqual([
      authlibSecret,
      'client-secret',
      undefined,
    ]);
    fs.writeFileSync(path.join(dir, 'AUTHLIB_SECRET'), 'short');
    const message = await problems({ ...identityEnv, KEEL_SECRETS_DIR: dir });
    expect(message).toContain('AUTHLIB_SECRET (secret AUTHLIB_SECRET): at least 32 characters');
    expect(message).toContain(`IDP_CLIENT_SECRET: required: put it in the file ${dir}/IDP_CLIENT_SECRET`);
    expect(message).not.toContain('short');
  });

  test('INGEST_URL needs the internal token in the store', async () => {
    fs.writeFileSync(path.join(dir, 'AUTHLIB_SECRET'), authlibSecret);
    fs.writeFileSync(path.join(dir, 'IDP_CLIENT_SECRET'), 'client-secret');
    const env = { ...identityEnv, KEEL_SECRETS_DIR: dir, INGEST_URL: 'http://api:3000' };
    expect(await problems(env)).toContain(`INGEST_URL: needs INTERNAL_API_TOKEN`);
    fs.writeFileSync(path.join(dir, 'INTERNAL_API_TOKEN'), 't'.repeat(40));
    expect((await withSecrets(loadIdentityConfig(env))).INTERNAL_API_TOKEN).toBe('t'.repeat(40));
  });

  test('npm start refuses them as variables too, unless KEEL_SECRETS_FROM_ENV', async () => {
    const env = { AUTHLIB_SECRET: authlibSecret, KEEL_SECRETS_DIR: dir };
    expect(await badVariables(loadStartConfig(env))).toEqual(['AUTHLIB_SECRET']);
    await expect(loadStartConfig(env)).rejects.toThrow(`put it in the file ${dir}/AUTHLIB_SECRET`);
    await expect(loadStartConfig({ ...env, KEEL_SECRETS_FROM_ENV: '1' })).resolves.toBeDefined();
  });

  test('with the development option KEEL_SECRETS_FROM_ENV the variables are taken (a store file still wins)', async () => {
    fs.writeFileSync(path.join(dir, 'IDP_CLIENT_SECRET'), 'from-the-file');
    const env = await withSecrets(
      loadIdentityConfig({
        ...identityEnv,
        KEEL_SECRETS_DIR: dir,
        KEEL_SECRETS_FROM_ENV: '1',
        AUTHLIB_SECRET: authlibSecret,
        IDP_CLIENT_SECRET: 'from-the-variable',
      }),
    );
    expect([env.AUTHLIB_SECRET, env.IDP_CLIENT_SECRET]).toEqual([authlibSecret, 'from-the-file']);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config/parse-env';
import { loadConfig as loadApiConfig } from './api-config';
import { loadConfig as loadStartConfig } from './config';
import { createSecretStore } from '../secrets/store';
import { identitySettings } from './identity-config';
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
    expect(config.identity.secretSources.sources.AUTHLIB_SECRET.fromEnv).toBeUndefined();
    // Only the variables the catalog's providers name are kept from the environment.
    expect(config.models.credentials.OPENAI_API_KEY).toBe('sk-test');
    expect(Object.values(config.models.credentials)).not.toContain('x');
  });

  test("npm start's console slice: the stack's addresses and token unless set, its own variables checked up front", async () => {
    const config = await loadStartConfig({ CONSOLE_PORT: '3200', PUBLIC_ENABLE_PASSWORD_LOGIN: 'false' });
    expect(config.console).toMatchObject({ CONSOLE_PORT: 3200, PUBLIC_ENABLE_PASSWORD_LOGIN: false });
    expect(config.console.IDENTITY_URL).toBeUndefined();
    expect(config.console.CONSOLE_API_TOKEN).toBeUndefined();
    // The console's org is configuration, `dev` (the CLI's dev token's) unless set.
    expect(config.console.CONSOLE_ORG_ID).toBe('dev');
    expect((await loadStartConfig({ CONSOLE_ORG_ID: 'acme' })).console.CONSOLE_ORG_ID).toBe('acme');
    expect(await badVariables(loadStartConfig({ CONSOLE_ORG_ID: 'two words' }))).toEqual(['CONSOLE_ORG_ID']);
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

  test('the identity service alone lists every required variable it lacks (no provider is required)', async () => {
    expect(await badVariables(() => loadIdentityConfig({ AUTHLIB_SECRET: 'short' }))).toEqual([
      'ADMIN_EMAILS',
      'AUTHLIB_COOKIE_DOMAIN',
      'AUTHLIB_SECRET',
      'AUTHLIB_URL',
      'DATABASE_URL',
      'TRUSTED_ORIGINS',
    ]);
  });
});

describe("the identity service's secrets: a variable or the store, the variable wins", () => {
  const passwordOnly = {
    DATABASE_URL: 'postgres://db/identity',
    AUTHLIB_URL: 'https://auth.example.com',
    AUTHLIB_COOKIE_DOMAIN: 'example.com',
    TRUSTED_ORIGINS: 'https://app.example.com',
    ADMIN_EMAILS: '',
  };
  const identityEnv = { ...passwordOnly, IDP_CLIENT_ID: 'keel', IDP_ISSUER_URL: 'https://accounts.example.com' };
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

  test('set as variables, as the spec says: taken, each with a warning naming the store file to prefer', async () => {
    const { env, warnings } = await withSecrets(
      loadIdentityConfig({
        ...identityEnv,
        KEEL_SECRETS_DIR: dir,
        AUTHLIB_SECRET: authlibSecret,
        IDP_CLIENT_SECRET: 'client-secret',
        INTERNAL_API_TOKEN: 'x'.repeat(40),
      }),
    );
    expect([env.AUTHLIB_SECRET, env.IDP_CLIENT_SECRET, env.INTERNAL_API_TOKEN]).toEqual([
      authlibSecret,
      'client-secret',
      'x'.repeat(40),
    ]);
    expect(warnings.map((w) => w.variable)).toEqual(['AUTHLIB_SECRET', 'IDP_CLIENT_SECRET', 'INTERNAL_API_TOKEN']);
    expect(warnings[0]!.message).toBe(
      `AUTHLIB_SECRET is read from the environment; the secrets store is the recommended place for it: the file ${dir}/AUTHLIB_SECRET (docs/secrets.md)`,
    );
    // A warning says where, never what.
    expect(JSON.stringify(warnings)).not.toContain(authlibSecret);
  });

  test('set both as a variable and as a store file: the variable wins, with a warning', async () => {
    fs.writeFileSync(path.join(dir, 'AUTHLIB_SECRET'), 'a file secret of at least thirty-two characters');
    fs.writeFileSync(path.join(dir, 'IDP_CLIENT_SECRET'), 'from-the-file');
    const { env, warnings } = await withSecrets(
      loadIdentityConfig({ ...identityEnv, KEEL_SECRETS_DIR: dir, IDP_CLIENT_SECRET: 'from-the-variable' }),
    );
    expect([env.AUTHLIB_SECRET, env.IDP_CLIENT_SECRET]).toEqual([
      'a file secret of at least thirty-two characters',
      'from-the-variable',
    ]);
    expect(warnings).toEqual([
      {
        variable: 'IDP_CLIENT_SECRET',
        message: `IDP_CLIENT_SECRET is set both as a variable and in the secrets store (the file ${dir}/IDP_CLIENT_SECRET): the variable wins (docs/secrets.md); unset one of them`,
      },
    ]);
  });

  test('a bad value is named with the other bad variables, whether a variable or a file, never shown', async () => {
    expect(
      await badVariables(() => loadIdentityConfig({ ...passwordOnly, INTERNAL_API_TOKEN: 'short token' })),
    ).toEqual(['INTERNAL_API_TOKEN']);
    fs.writeFileSync(path.join(dir, 'AUTHLIB_SECRET'), 'short');
    const message = await problems({ ...passwordOnly, KEEL_SECRETS_DIR: dir });
    expect(message).toContain('AUTHLIB_SECRET (secret AUTHLIB_SECRET): at least 32 characters');
    expect(message).not.toContain('short');
  });

  test('read from the store files (ids overridable), without a warning', async () => {
    fs.writeFileSync(path.join(dir, 'AUTHLIB_SECRET'), `${authlibSecret}\n`);
    fs.mkdirSync(path.join(dir, 'idp'));
    fs.writeFileSync(path.join(dir, 'idp', 'google'), 'client-secret');
    const { env, warnings } = await withSecrets(
      loadIdentityConfig({ ...identityEnv, KEEL_SECRETS_DIR: dir, IDP_CLIENT_SECRET_ID: 'idp/google' }),
    );
    expect([env.AUTHLIB_SECRET, env.IDP_CLIENT_SECRET, env.INTERNAL_API_TOKEN]).toEqual([
      authlibSecret,
      'client-secret',
      undefined,
    ]);
    expect(warnings).toEqual([]);
    expect(await problems({ ...passwordOnly, KEEL_SECRETS_DIR: dir, AUTHLIB_SECRET_ID: '../up' })).toContain(
      'AUTHLIB_SECRET_ID: a secret id',
    );
  });

  test('password-only: no IDP_* at all starts, without a provider; AUTHLIB_SECRET is still required', async () => {
    const { env } = await withSecrets(loadIdentityConfig({ ...passwordOnly, AUTHLIB_SECRET: authlibSecret }));
    expect([env.IDP_ISSUER_URL, env.IDP_CLIENT_ID, env.IDP_CLIENT_SECRET]).toEqual([undefined, undefined, undefined]);
    // IDP_ID alone (a chart's default) names a path, not a provider.
    const named = await withSecrets(
      loadIdentityConfig({ ...passwordOnly, AUTHLIB_SECRET: authlibSecret, IDP_ID: 'google', IDP_CLIENT_ID: '' }),
    );
    expect(named.env.IDP_ISSUER_URL).toBeUndefined();
    expect(await problems({ ...passwordOnly, KEEL_SECRETS_DIR: dir })).toContain(
      `AUTHLIB_SECRET: required: set AUTHLIB_SECRET or put it in the file ${dir}/AUTHLIB_SECRET (recommended)`,
    );
  });

  test('a partial provider stops start-up naming each missing variable', async () => {
    const base = { ...passwordOnly, AUTHLIB_SECRET: authlibSecret, KEEL_SECRETS_DIR: dir };
    const issuerOnly = await problems({ ...base, IDP_ISSUER_URL: 'https://accounts.example.com' });
    expect(issuerOnly).toContain('  IDP_CLIENT_ID: required with IDP_ISSUER_URL');
    expect(issuerOnly).toContain(
      `  IDP_CLIENT_SECRET: required with IDP_ISSUER_URL: set IDP_CLIENT_SECRET or put it in the file ${dir}/IDP_CLIENT_SECRET (recommended)`,
    );
    expect(await badVariables(withSecrets(loadIdentityConfig({ ...base, IDP_CLIENT_ID: 'keel' })))).toEqual([
      'IDP_CLIENT_SECRET',
      'IDP_ISSUER_URL',
    ]);
    expect(await problems({ ...base, IDP_CLIENT_ID: 'keel', IDP_CLIENT_SECRET: 's' })).toContain(
      'IDP_ISSUER_URL: required with IDP_CLIENT_ID, IDP_CLIENT_SECRET (derived from IDP_ID only for google, gitlab',
    );
  });

  test('the issuer is derived from IDP_ID for a provider with one public issuer, and an explicit one wins', async () => {
    const base = { ...passwordOnly, AUTHLIB_SECRET: authlibSecret, IDP_CLIENT_ID: 'keel', IDP_CLIENT_SECRET: 's' };
    const google = await withSecrets(loadIdentityConfig({ ...base, IDP_ID: 'google' }));
    expect(google.env.IDP_ISSUER_URL).toBe('https://accounts.google.com');
    const own = await withSecrets(
      loadIdentityConfig({ ...base, IDP_ID: 'gitlab', IDP_ISSUER_URL: 'https://gitlab.example.com' }),
    );
    expect(own.env.IDP_ISSUER_URL).toBe('https://gitlab.example.com');
  });

  test('INGEST_URL needs the internal token, as a variable or in the store', async () => {
    fs.writeFileSync(path.join(dir, 'AUTHLIB_SECRET'), authlibSecret);
    const env = { ...passwordOnly, KEEL_SECRETS_DIR: dir, INGEST_URL: 'http://api:3000' };
    expect(await problems(env)).toContain(`INGEST_URL: needs INTERNAL_API_TOKEN`);
    fs.writeFileSync(path.join(dir, 'INTERNAL_API_TOKEN'), 't'.repeat(40));
    expect((await withSecrets(loadIdentityConfig(env))).env.INTERNAL_API_TOKEN).toBe('t'.repeat(40));
  });

  test('KEEL_SECRETS_FROM_ENV still works for them, and says it is no longer needed', async () => {
    const { env, warnings } = await withSecrets(
      loadIdentityConfig({ ...passwordOnly, KEEL_SECRETS_FROM_ENV: '1', AUTHLIB_SECRET: authlibSecret }),
    );
    expect(env.AUTHLIB_SECRET).toBe(authlibSecret);
    expect(warnings.map((w) => w.variable)).toEqual(['KEEL_SECRETS_FROM_ENV', 'AUTHLIB_SECRET']);
    expect(warnings[0]!.message).toContain('KEEL_SECRETS_FROM_ENV is deprecated for AUTHLIB_SECRET');
  });

  test('npm start takes them as variables too, by the same rule and with the same warnings', async () => {
    fs.writeFileSync(path.join(dir, 'IDP_CLIENT_SECRET'), 'from-the-file');
    const config = await loadStartConfig({
      AUTHLIB_SECRET: authlibSecret,
      KEEL_SECRETS_DIR: dir,
      IDP_ID: 'google',
      IDP_CLIENT_ID: 'keel',
      IDP_CLIENT_SECRET: 'from-the-variable',
    });
    const { settings, warnings } = await identitySettings(config.identity, {
      dataDir: dir,
      databaseUrl: 'postgres://db/keel',
      secrets: createSecretStore(config.secrets),
    });
    expect([settings.AUTHLIB_SECRET, settings.IDP_CLIENT_SECRET, settings.IDP_ISSUER_URL]).toEqual([
      authlibSecret,
      'from-the-variable',
      'https://accounts.google.com',
    ]);
    expect(warnings.map((w) => w.variable)).toEqual(['AUTHLIB_SECRET', 'IDP_CLIENT_SECRET']);
    expect(await badVariables(loadStartConfig({ AUTHLIB_SECRET: 'short' }))).toEqual(['AUTHLIB_SECRET']);
    // Password-only under npm start too; a partial provider is refused when the secrets are read.
    const partial = await loadStartConfig({ IDP_CLIENT_ID: 'keel' });
    const refused = identitySettings(partial.identity, {
      dataDir: dir,
      databaseUrl: 'postgres://db/keel',
      secrets: createSecretStore(partial.secrets),
    });
    expect(await badVariables(refused)).toEqual(['IDP_CLIENT_SECRET', 'IDP_ISSUER_URL']);
  });
});

describe("the API's deployment secrets: the same rule on its end", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-api-secrets-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const token = 'i'.repeat(40);

  test('IDENTITY_INTERNAL_TOKEN from the store (its id overridable to share the identity service file), silently', async () => {
    fs.writeFileSync(path.join(dir, 'INTERNAL_API_TOKEN'), `${token}\n`);
    const config = await loadApiConfig({
      ...alone,
      KEEL_SECRETS_DIR: dir,
      IDENTITY_URL: 'http://identity:8080',
      IDENTITY_INTERNAL_TOKEN_SECRET_ID: 'INTERNAL_API_TOKEN',
    });
    expect(config.api.IDENTITY_INTERNAL_TOKEN).toBe(token);
    expect(config.warnings).toEqual([]);
    fs.writeFileSync(path.join(dir, 'IDENTITY_INTERNAL_TOKEN'), 'short');
    const refused = loadApiConfig({ ...alone, KEEL_SECRETS_DIR: dir });
    await expect(refused).rejects.toThrow('IDENTITY_INTERNAL_TOKEN (secret IDENTITY_INTERNAL_TOKEN)');
    await expect(loadApiConfig({ ...alone, KEEL_SECRETS_DIR: dir })).rejects.not.toThrow('short');
  });

  test('the variable wins over the file, with a warning; so does CHATAPP_SIGNING_SECRET over its store secret', async () => {
    fs.writeFileSync(path.join(dir, 'IDENTITY_INTERNAL_TOKEN'), 'f'.repeat(40));
    fs.writeFileSync(path.join(dir, 'chat-signing'), 'from-the-file');
    const config = await loadApiConfig({
      ...alone,
      KEEL_SECRETS_DIR: dir,
      IDENTITY_INTERNAL_TOKEN: token,
      CHATAPP_SIGNING_SECRET: 'from-the-variable',
      CHATAPP_SIGNING_SECRET_ID: 'chat-signing',
      CHATAPP_BOT_TOKEN_SECRET_ID: 'chat-bot',
    });
    expect(config.api.IDENTITY_INTERNAL_TOKEN).toBe(token);
    expect(config.warnings.map((w) => w.message)).toEqual([
      `IDENTITY_INTERNAL_TOKEN is set both as a variable and in the secrets store (the file ${dir}/IDENTITY_INTERNAL_TOKEN): the variable wins (docs/secrets.md); unset one of them`,
      `CHATAPP_SIGNING_SECRET is set both as a variable and in the secrets store (the file ${dir}/chat-signing): the variable wins (docs/secrets.md); unset one of them`,
    ]);
    const plain = await loadApiConfig({ ...alone, CHATAPP_SIGNING_SECRET: 's', CHATAPP_BOT_TOKEN_SECRET_ID: 'b' });
    expect(plain.warnings).toEqual([
      {
        variable: 'CHATAPP_SIGNING_SECRET',
        message:
          'CHATAPP_SIGNING_SECRET is read from the environment; the secrets store is the recommended place for it (docs/secrets.md)',
      },
    ]);
  });
});

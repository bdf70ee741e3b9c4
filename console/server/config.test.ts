import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../config/parse-env';
import { z } from 'zod';
import { createSecretStore } from '../../secrets/store';
import { loadConfig as loadWithWarnings, readConsoleToken } from './config';

const loadConfig = async (env: NodeJS.ProcessEnv) => (await loadWithWarnings(env)).config;

const required = {
  IDENTITY_URL: 'http://auth.internal:8080/',
  INGEST_API_URL: 'http://api.internal:3000',
  CONSOLE_API_TOKEN: 'keel_console_token_value',
};

test('defaults: port 3100 on loopback, password form on, no provider button, no Temporal link', async () => {
  const config = await loadConfig(required);
  expect(config).toMatchObject({
    CONSOLE_PORT: 3100,
    CONSOLE_HOST: '127.0.0.1',
    IDENTITY_URL: 'http://auth.internal:8080',
    PUBLIC_ENABLE_PASSWORD_LOGIN: true,
    SESSION_COOKIE_NAME: 'keel_session',
    UPSTREAM_CONNECT_TIMEOUT_MS: 2000,
  });
  expect(config.OIDC_PROVIDER_ID).toBeUndefined();
  expect(config.TEMPORAL_UI_URL).toBeUndefined();
});

test('PUBLIC_ENABLE_PASSWORD_LOGIN=false hides the form; an empty value means the default', async () => {
  expect((await loadConfig({ ...required, PUBLIC_ENABLE_PASSWORD_LOGIN: 'false' })).PUBLIC_ENABLE_PASSWORD_LOGIN).toBe(
    false,
  );
  expect((await loadConfig({ ...required, PUBLIC_ENABLE_PASSWORD_LOGIN: '' })).PUBLIC_ENABLE_PASSWORD_LOGIN).toBe(true);
});

test('a bad configuration stops start-up with one line per variable', async () => {
  let error: unknown;
  try {
    await loadConfig({ INGEST_API_URL: 'ftp://api', CONSOLE_PORT: 'eighty' });
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const lines = (error as Error).message.split('\n').slice(1);
  expect(lines).toEqual(
    expect.arrayContaining([
      '  IDENTITY_URL: required',
      '  CONSOLE_API_TOKEN: required: set CONSOLE_API_TOKEN or put it in nowhere: KEEL_SECRETS_DIR is unset (then the file <dir>/CONSOLE_API_TOKEN) (recommended)',
      expect.stringMatching(/^ {2}INGEST_API_URL: /) as string,
      expect.stringMatching(/^ {2}CONSOLE_PORT: /) as string,
    ]),
  );
  expect(lines).toHaveLength(4);
});

test('CONSOLE_API_TOKEN may be a store file, as at the other end (keel migrate); the variable wins, with a warning', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-console-secrets-'));
  try {
    const { CONSOLE_API_TOKEN: variable, ...withoutToken } = required;
    fs.writeFileSync(path.join(dir, 'CONSOLE_API_TOKEN'), 'keel_console_token_from_file\n');
    const fromFile = await loadWithWarnings({ ...withoutToken, KEEL_SECRETS_DIR: dir });
    expect(fromFile.config.CONSOLE_API_TOKEN).toBe('keel_console_token_from_file');
    expect(fromFile.warnings).toEqual([]);
    const both = await loadWithWarnings({ ...required, KEEL_SECRETS_DIR: dir });
    expect(both.config.CONSOLE_API_TOKEN).toBe(variable);
    expect(both.warnings.map((w) => w.variable)).toEqual(['CONSOLE_API_TOKEN']);
    expect(both.warnings[0]!.message).toContain('the variable wins');
    fs.writeFileSync(path.join(dir, 'CONSOLE_API_TOKEN'), 'short');
    await expect(loadWithWarnings({ ...withoutToken, KEEL_SECRETS_DIR: dir })).rejects.toThrow(
      'CONSOLE_API_TOKEN (secret CONSOLE_API_TOKEN): an ingest API token',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a holder's own rule checks a stored token, as it checks its variable (keel migrate asks for 32 characters)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-console-secrets-'));
  try {
    fs.writeFileSync(path.join(dir, 'CONSOLE_API_TOKEN'), 'keel_twenty_chars_xx');
    const store = createSecretStore({ dir, ttlMs: 0, fromEnv: false, env: {} });
    expect((await readConsoleToken({}, store, false)).token).toBe('keel_twenty_chars_xx');
    const strict = await readConsoleToken({}, store, false, z.string().min(32, 'at least 32 characters'));
    expect(strict).toEqual({
      problems: ['  CONSOLE_API_TOKEN (secret CONSOLE_API_TOKEN): at least 32 characters'],
      warnings: [],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

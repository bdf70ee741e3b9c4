import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from '../config/parse-env';
import { secretsConfig } from './config';
import { createSecretStore, SecretReadError } from './store';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-secrets-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const settings = (env: NodeJS.ProcessEnv) => parseEnv(secretsConfig, env, 'test');

test('a secret is the file named by its id, trailing newlines dropped; a nested id is a key of a mounted secret', async () => {
  await fs.writeFile(path.join(dir, 'gh-token'), 'ghp_abc\n');
  await fs.mkdir(path.join(dir, 'keel'));
  await fs.writeFile(path.join(dir, 'keel', 'openai'), 'sk-1\r\n');
  const store = createSecretStore(settings({ KEEL_SECRETS_DIR: dir }));
  expect(await store.get('gh-token')).toBe('ghp_abc');
  expect(await store.get('keel/openai')).toBe('sk-1');
  expect(await store.get('missing')).toBeUndefined();
  expect(await store.get('gh-token/below-a-file')).toBeUndefined();
});

test('an empty file is no secret', async () => {
  await fs.writeFile(path.join(dir, 'blank'), '\n');
  expect(await createSecretStore(settings({ KEEL_SECRETS_DIR: dir })).get('blank')).toBeUndefined();
});

test('a changed file is read again once the cached value is older than the TTL', async () => {
  let clock = 0;
  const store = createSecretStore(settings({ KEEL_SECRETS_DIR: dir, KEEL_SECRETS_TTL_MS: '1000' }), () => clock);
  await fs.writeFile(path.join(dir, 'token'), 'old');
  expect(await store.get('token')).toBe('old');
  await fs.writeFile(path.join(dir, 'token'), 'new');
  clock = 999;
  expect(await store.get('token')).toBe('old');
  clock = 1000;
  expect(await store.get('token')).toBe('new');
  await fs.rm(path.join(dir, 'token'));
  clock = 2000;
  expect(await store.get('token')).toBeUndefined();
});

test('ids that could leave the directory are refused, naming the id', async () => {
  const store = createSecretStore(settings({ KEEL_SECRETS_DIR: dir }));
  for (const id of ['../etc/passwd', '/etc/passwd', 'a/../b', '.hidden', '']) {
    await expect(store.get(id)).rejects.toThrow(SecretReadError);
  }
});

test('a file that exists but cannot be read fails with the id and the error code only', async () => {
  await fs.mkdir(path.join(dir, 'a-directory'));
  const store = createSecretStore(settings({ KEEL_SECRETS_DIR: dir }));
  await expect(store.get('a-directory')).rejects.toThrow('secret a-directory cannot be read (EISDIR)');
});

test('the environment is read only with KEEL_SECRETS_FROM_ENV, only under the KEEL_SECRET_ prefix', async () => {
  const env = { KEEL_SECRET_KEEL_OPENAI: 'sk-env', 'keel/openai': 'sk-raw', GH_TOKEN: 'ghp_raw' };
  const off = settings(env);
  expect(off.env).toEqual({});
  expect(await createSecretStore(off).get('keel/openai')).toBeUndefined();
  expect(await createSecretStore(off).get('GH_TOKEN')).toBeUndefined();

  const on = settings({ ...env, KEEL_SECRETS_FROM_ENV: '1' });
  expect(on.env).toEqual({ KEEL_SECRET_KEEL_OPENAI: 'sk-env' });
  expect(await createSecretStore(on).get('keel/openai')).toBe('sk-env');
  expect(await createSecretStore(on).get('GH_TOKEN')).toBeUndefined();
});

test('the development variable wins over a file, as every variable does over its store file (docs/secrets.md)', async () => {
  await fs.writeFile(path.join(dir, 'token'), 'from-file');
  await fs.writeFile(path.join(dir, 'other'), 'from-file');
  const store = createSecretStore(
    settings({ KEEL_SECRETS_DIR: dir, KEEL_SECRETS_FROM_ENV: 'true', KEEL_SECRET_TOKEN: 'from-env' }),
  );
  expect(await store.get('token')).toBe('from-env');
  expect(await store.get('other')).toBe('from-file');
});

test('configuration: a relative directory and the old SECRETS_DIR are refused with what to set', () => {
  expect(() => settings({ KEEL_SECRETS_DIR: 'secrets' })).toThrow(
    /KEEL_SECRETS_DIR: KEEL_SECRETS_DIR must be an absolute path/,
  );
  expect(() => settings({ SECRETS_DIR: dir })).toThrow(/SECRETS_DIR: renamed: set KEEL_SECRETS_DIR/);
  expect(() => settings({ KEEL_SECRETS_FROM_ENV: 'maybe' })).toThrow(/KEEL_SECRETS_FROM_ENV/);
});

test('where() tells an operator where a missing secret is looked for', () => {
  expect(createSecretStore(settings({ KEEL_SECRETS_DIR: dir })).where('keel/openai')).toBe(
    `the file ${path.join(dir, 'keel', 'openai')}`,
  );
  expect(createSecretStore(settings({ KEEL_SECRETS_FROM_ENV: '1' })).where('keel/openai')).toBe(
    'the variable KEEL_SECRET_KEEL_OPENAI',
  );
  expect(createSecretStore(settings({})).where('x')).toMatch(/KEEL_SECRETS_DIR is unset/);
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { envOrStoreSource, readEnvOrStore, redundantFromEnvWarning, type EnvOrStoreSecret } from './env-or-store';
import { createSecretStore } from './store';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-env-or-store-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const secret: EnvOrStoreSecret = { variable: 'SHARED_TOKEN', idVariable: 'SHARED_TOKEN_SECRET_ID' };
const sourceOf = (env: Record<string, string>, of = secret) =>
  z
    .custom<Record<string, string>>()
    .transform((value, ctx) => envOrStoreSource(value, of, ctx))
    .parse(env);
const store = () => createSecretStore({ dir, ttlMs: 0, fromEnv: false, env: {} });

test('the id is the variable name unless the id variable names another; a bad id is refused at that variable', () => {
  expect(sourceOf({})).toEqual({ variable: 'SHARED_TOKEN', id: 'SHARED_TOKEN' });
  expect(sourceOf({ SHARED_TOKEN_SECRET_ID: 'keel/shared', SHARED_TOKEN: 'v' })).toEqual({
    variable: 'SHARED_TOKEN',
    id: 'keel/shared',
    fromEnv: 'v',
  });
  // A blank variable is unset, as everywhere in Keel's configuration.
  expect(sourceOf({ SHARED_TOKEN: '' }).fromEnv).toBeUndefined();
  expect(() => sourceOf({ SHARED_TOKEN_SECRET_ID: '../x' })).toThrow(/SHARED_TOKEN_SECRET_ID/);
  expect(sourceOf({}, { ...secret, defaultId: null })).toEqual({ variable: 'SHARED_TOKEN' });
});

test('one rule: the variable wins over the file, with a warning; the file alone is silent; neither is no value', async () => {
  expect(await readEnvOrStore(sourceOf({}), store())).toEqual({ warnings: [] });
  await fs.writeFile(path.join(dir, 'SHARED_TOKEN'), 'from-the-file\n');
  expect(await readEnvOrStore(sourceOf({}), store())).toEqual({ value: 'from-the-file', from: 'store', warnings: [] });
  const both = await readEnvOrStore(sourceOf({ SHARED_TOKEN: 'from-the-variable' }), store());
  expect(both).toMatchObject({ value: 'from-the-variable', from: 'environment' });
  expect(both.warnings).toEqual([
    {
      variable: 'SHARED_TOKEN',
      message: `SHARED_TOKEN is set both as a variable and in the secrets store (the file ${dir}/SHARED_TOKEN): the variable wins (docs/secrets.md); unset one of them`,
    },
  ]);
  await fs.rm(path.join(dir, 'SHARED_TOKEN'));
  const variableOnly = await readEnvOrStore(sourceOf({ SHARED_TOKEN: 'from-the-variable' }), store());
  expect(variableOnly.warnings[0]!.message).toBe(
    `SHARED_TOKEN is read from the environment; the secrets store is the recommended place for it: the file ${dir}/SHARED_TOKEN (docs/secrets.md)`,
  );
  expect(JSON.stringify([both, variableOnly].map((r) => r.warnings))).not.toContain('from-the-');
});

test('KEEL_SECRETS_FROM_ENV is reported redundant only when it is on and one of the variables is set', () => {
  expect(redundantFromEnvWarning({ KEEL_SECRETS_FROM_ENV: '1' }, ['SHARED_TOKEN'])).toEqual([]);
  expect(redundantFromEnvWarning({ SHARED_TOKEN: 'v' }, ['SHARED_TOKEN'])).toEqual([]);
  expect(redundantFromEnvWarning({ KEEL_SECRETS_FROM_ENV: 'true', SHARED_TOKEN: 'v' }, ['SHARED_TOKEN'])).toEqual([
    {
      variable: 'KEEL_SECRETS_FROM_ENV',
      message: expect.stringContaining('KEEL_SECRETS_FROM_ENV is deprecated for SHARED_TOKEN') as unknown,
    },
  ]);
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from '../config/parse-env';
import { secretsConfig } from '../secrets/config';
import { createSecretStore } from '../secrets/store';
import { answerLinkEnv, resolveAnswerLinks } from './config';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-answer-links-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const store = () => createSecretStore(parseEnv(secretsConfig, { KEEL_SECRETS_DIR: dir }, 'test'));
const slice = (env: NodeJS.ProcessEnv) => parseEnv(answerLinkEnv, env, 'test');
const defaults = { defaultBaseUrl: 'http://127.0.0.1:3000' };

test('the secret comes from the store; the base URL and TTL from the environment, with defaults', async () => {
  await fs.writeFile(path.join(dir, 'ANSWER_LINK_SECRET'), `${'s'.repeat(40)}\n`);
  expect(await resolveAnswerLinks(slice({}), store(), defaults)).toEqual({
    settings: { baseUrl: 'http://127.0.0.1:3000', ttlSeconds: 7 * 86_400, secret: 's'.repeat(40) },
    warnings: [],
  });
  const configured = await resolveAnswerLinks(
    slice({ ANSWER_LINK_BASE_URL: 'https://keel.example.com/', ANSWER_LINK_TTL_SECONDS: '90' }),
    store(),
    defaults,
  );
  expect(configured.settings).toMatchObject({ baseUrl: 'https://keel.example.com', ttlSeconds: 90 });
});

test('the variable wins over the store, with a warning that names no value', async () => {
  await fs.writeFile(path.join(dir, 'ANSWER_LINK_SECRET'), 's'.repeat(40));
  const resolved = await resolveAnswerLinks(slice({ ANSWER_LINK_SECRET: 'v'.repeat(40) }), store(), defaults);
  expect(resolved.settings?.secret).toBe('v'.repeat(40));
  expect(resolved.warnings).toHaveLength(1);
  expect(JSON.stringify(resolved.warnings)).not.toContain('v'.repeat(40));
});

test('without a secret links are off, with a warning; npm start generates one and keeps it', async () => {
  const off = await resolveAnswerLinks(slice({}), store(), defaults);
  expect(off.settings).toBeUndefined();
  expect(off.warnings[0]?.message).toContain('events carry no answer_url');

  const file = path.join(dir, 'generated');
  const first = await resolveAnswerLinks(slice({}), store(), { ...defaults, generatedSecretFile: file });
  const second = await resolveAnswerLinks(slice({}), store(), { ...defaults, generatedSecretFile: file });
  expect(first.settings!.secret.length).toBeGreaterThanOrEqual(32);
  expect(second.settings!.secret).toBe(first.settings!.secret);
  expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
});

test('a short secret, a bad TTL or a bad base URL is refused', async () => {
  expect(() => slice({ ANSWER_LINK_SECRET: 'short' })).toThrow(/ANSWER_LINK_SECRET/);
  expect(() => slice({ ANSWER_LINK_TTL_SECONDS: '0' })).toThrow(/ANSWER_LINK_TTL_SECONDS/);
  expect(() => slice({ ANSWER_LINK_BASE_URL: 'ftp://x' })).toThrow(/ANSWER_LINK_BASE_URL/);
  await fs.writeFile(path.join(dir, 'ANSWER_LINK_SECRET'), 'short');
  const stored = await resolveAnswerLinks(slice({}), store(), defaults);
  expect(stored.settings).toBeUndefined();
  expect(stored.warnings[0]?.message).toContain('shorter than 32');
});

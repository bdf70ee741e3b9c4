import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSecretStore, noSecrets } from '../secrets/store';
import { chatAppFromEnv } from './chat-app';
import { chatAppEnv, chatAppInbound, chatAppSettings } from './config';

const parse = (env: Record<string, string>) => chatAppEnv.parse(env);

test('everything unset: no secret ids, the public Web API', () => {
  expect(chatAppSettings(parse({}))).toEqual({
    signingSecretId: undefined,
    signingSecret: undefined,
    botTokenSecretId: undefined,
    teamIdOverride: undefined,
    apiUrl: 'https://slack.com/api/',
    historyMessages: 20,
  });
});

test('the bot token is never a variable (refused, naming the id to set); the signing secret may be, as the spec says', () => {
  expect(() => parse({ CHATAPP_BOT_TOKEN: 'xoxb-1' })).toThrow(/CHATAPP_BOT_TOKEN_SECRET_ID/);
  expect(chatAppSettings(parse({ CHATAPP_SIGNING_SECRET: 's' })).signingSecret).toBe('s');
  expect(() => parse({ CHATAPP_BOT_TOKEN_SECRET_ID: '../bot' })).toThrow(/a secret id/);
});

test('the API URL gets its trailing slash, and a bad one is refused', () => {
  expect(chatAppSettings(parse({ CHATAPP_API_URL: 'http://127.0.0.1:9/api' })).apiUrl).toBe('http://127.0.0.1:9/api/');
  expect(() => parse({ CHATAPP_API_URL: 'not a url' })).toThrow();
});

test('a process serving inbound chat needs a bot token id beside the signing secret (id or variable)', () => {
  expect(chatAppInbound.safeParse({ CHATAPP_SIGNING_SECRET_ID: 'chat/signing' }).error?.issues[0]).toMatchObject({
    path: ['CHATAPP_BOT_TOKEN_SECRET_ID'],
  });
  expect(chatAppInbound.safeParse({ CHATAPP_SIGNING_SECRET: 's' }).error?.issues[0]).toMatchObject({
    path: ['CHATAPP_BOT_TOKEN_SECRET_ID'],
    message: 'required with CHATAPP_SIGNING_SECRET; set it, or unset the signing secret',
  });
  expect(
    chatAppInbound.safeParse({ CHATAPP_SIGNING_SECRET_ID: 'chat/signing', CHATAPP_BOT_TOKEN_SECRET_ID: 'chat/bot' })
      .success,
  ).toBe(true);
});

test('the signing secret is read from the store at each request, so a rotated one applies at once', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-chat-secrets-'));
  try {
    await fs.mkdir(path.join(dir, 'chat'));
    const secrets = createSecretStore({ dir, ttlMs: 0, fromEnv: false, env: {} });
    const app = chatAppFromEnv(
      parse({ CHATAPP_SIGNING_SECRET_ID: 'chat/signing', CHATAPP_BOT_TOKEN_SECRET_ID: 'chat/bot' }),
      secrets,
    );
    expect(await app.signingSecret()).toBeUndefined();
    await fs.writeFile(path.join(dir, 'chat', 'signing'), 'first\n');
    expect(await app.signingSecret()).toBe('first');
    await fs.writeFile(path.join(dir, 'chat', 'signing'), 'second\n');
    expect(await app.signingSecret()).toBe('second');
    expect(app.api).toBeDefined();
    expect(await chatAppFromEnv(parse({}), noSecrets).signingSecret()).toBeUndefined();
    expect(chatAppFromEnv(parse({}), noSecrets).api).toBeUndefined();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('CHATAPP_SIGNING_SECRET wins over the store secret CHATAPP_SIGNING_SECRET_ID names', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-chat-secrets-'));
  try {
    await fs.writeFile(path.join(dir, 'signing'), 'from-the-file');
    const secrets = createSecretStore({ dir, ttlMs: 0, fromEnv: false, env: {} });
    const both = { CHATAPP_SIGNING_SECRET_ID: 'signing', CHATAPP_BOT_TOKEN_SECRET_ID: 'bot' };
    expect(await chatAppFromEnv(parse(both), secrets).signingSecret()).toBe('from-the-file');
    const app = chatAppFromEnv(parse({ ...both, CHATAPP_SIGNING_SECRET: 'from-the-variable' }), secrets);
    expect(await app.signingSecret()).toBe('from-the-variable');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

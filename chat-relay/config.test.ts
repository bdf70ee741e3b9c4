import { chatAppFromEnv } from './chat-app';
import { chatAppEnv, chatAppSettings } from './config';

const parse = (env: Record<string, string>) => chatAppEnv.parse(env);

test('everything unset: no secret, no token, the public Web API', () => {
  expect(chatAppSettings(parse({}))).toEqual({
    signingSecret: undefined,
    botToken: undefined,
    teamIdOverride: undefined,
    apiUrl: 'https://slack.com/api/',
    historyMessages: 20,
  });
});

test('the env token wins over the secrets store; the store answers when the env is blank', () => {
  const secrets = (id: string) => (id === 'keel/chat-bot' ? 'xoxb-from-store' : undefined);
  const both = parse({ CHATAPP_BOT_TOKEN: 'xoxb-from-env', CHATAPP_BOT_TOKEN_SECRET_ID: 'keel/chat-bot' });
  expect(chatAppSettings(both, secrets).botToken).toBe('xoxb-from-env');
  const storeOnly = parse({ CHATAPP_BOT_TOKEN: '', CHATAPP_BOT_TOKEN_SECRET_ID: 'keel/chat-bot' });
  expect(chatAppSettings(storeOnly, secrets).botToken).toBe('xoxb-from-store');
  expect(chatAppSettings(storeOnly).botToken).toBeUndefined();
});

test('the API URL gets its trailing slash, and a bad one is refused', () => {
  expect(chatAppSettings(parse({ CHATAPP_API_URL: 'http://127.0.0.1:9/api' })).apiUrl).toBe('http://127.0.0.1:9/api/');
  expect(() => parse({ CHATAPP_API_URL: 'not a url' })).toThrow();
});

test('a signing secret without any bot token stops start-up, naming what to set', () => {
  expect(() => chatAppFromEnv(parse({ CHATAPP_SIGNING_SECRET: 's' }))).toThrow(/set CHATAPP_BOT_TOKEN/);
  expect(() => chatAppFromEnv(parse({ CHATAPP_SIGNING_SECRET: 's', CHATAPP_BOT_TOKEN_SECRET_ID: 'keel/bot' }))).toThrow(
    /keel\/bot did not resolve/,
  );
  expect(chatAppFromEnv(parse({})).signingSecret).toBeUndefined();
  expect(chatAppFromEnv(parse({ CHATAPP_SIGNING_SECRET: 's', CHATAPP_BOT_TOKEN: 'xoxb-1' })).signingSecret).toBe('s');
});

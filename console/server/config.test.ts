import { ConfigError } from '../../config/parse-env';
import { loadConfig } from './config';

const required = {
  IDENTITY_URL: 'http://auth.internal:8080/',
  INGEST_API_URL: 'http://api.internal:3000',
  CONSOLE_API_TOKEN: 'keel_console_token_value',
};

test('defaults: port 3100 on loopback, password form on, no provider button, no Temporal link', () => {
  const config = loadConfig(required);
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

test('PUBLIC_ENABLE_PASSWORD_LOGIN=false hides the form; an empty value means the default', () => {
  expect(loadConfig({ ...required, PUBLIC_ENABLE_PASSWORD_LOGIN: 'false' }).PUBLIC_ENABLE_PASSWORD_LOGIN).toBe(false);
  expect(loadConfig({ ...required, PUBLIC_ENABLE_PASSWORD_LOGIN: '' }).PUBLIC_ENABLE_PASSWORD_LOGIN).toBe(true);
});

test('a bad configuration stops start-up with one line per variable', () => {
  let error: unknown;
  try {
    loadConfig({ INGEST_API_URL: 'ftp://api', CONSOLE_PORT: 'eighty' });
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const lines = (error as Error).message.split('\n').slice(1);
  expect(lines).toEqual(
    expect.arrayContaining([
      '  IDENTITY_URL: required',
      '  CONSOLE_API_TOKEN: required',
      expect.stringMatching(/^ {2}INGEST_API_URL: /) as string,
      expect.stringMatching(/^ {2}CONSOLE_PORT: /) as string,
    ]),
  );
  expect(lines).toHaveLength(4);
});

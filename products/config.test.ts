import { ConfigError } from '../config/parse-env';
import { loadProductsConfig } from './config';

test('defaults: api.vercel.com, no team, the token as secret VERCEL_TOKEN, two-minute builds', () => {
  const settings = loadProductsConfig({}, 'keel worker');
  expect(settings.vercel).toMatchObject({
    apiUrl: 'https://api.vercel.com',
    teamId: undefined,
    tokenSecretId: 'VERCEL_TOKEN',
  });
  expect(settings.buildLimits.timeoutMs).toBe(120_000);
});

test('the team, limits and token id come from the environment; the token itself is never a variable', () => {
  const settings = loadProductsConfig(
    {
      VERCEL_TOKEN_SECRET_ID: 'vercel/token',
      VERCEL_TEAM_ID: 'team_1',
      BUILD_TIMEOUT_MS: '5000',
      OPENAI_API_KEY: 'sk-x',
    },
    'keel worker',
  );
  expect(settings.vercel).toMatchObject({ teamId: 'team_1', tokenSecretId: 'vercel/token' });
  expect(settings.buildLimits.timeoutMs).toBe(5_000);
  expect(JSON.stringify(settings)).not.toContain('sk-x');
  expect(() => loadProductsConfig({ VERCEL_TOKEN: 'tok' }, 'keel worker')).toThrow(
    /VERCEL_TOKEN: not read: put the token in the secrets store as secret VERCEL_TOKEN/,
  );
});

test('a bad value stops start-up naming the variable', () => {
  expect(() => loadProductsConfig({ BUILD_TIMEOUT_MS: 'soon' }, 'keel worker')).toThrow(ConfigError);
  expect(() => loadProductsConfig({ VERCEL_API_URL: 'not a url' }, 'keel worker')).toThrow(/VERCEL_API_URL/);
  expect(() => loadProductsConfig({ VERCEL_TOKEN_SECRET_ID: '../token' }, 'keel worker')).toThrow(
    /VERCEL_TOKEN_SECRET_ID/,
  );
});

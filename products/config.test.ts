import { ConfigError } from '../config/parse-env';
import { loadProductsConfig } from './config';

test('defaults: api.vercel.com, no team, no token, two-minute builds', () => {
  const settings = loadProductsConfig({}, 'keel worker');
  expect(settings.vercel).toMatchObject({ apiUrl: 'https://api.vercel.com', teamId: undefined });
  expect(settings.buildLimits.timeoutMs).toBe(120_000);
  expect(settings.env).toEqual({});
});

test('the token, team and limits come from the environment; nothing else of it is kept', () => {
  const settings = loadProductsConfig(
    { VERCEL_TOKEN: 'tok', VERCEL_TEAM_ID: 'team_1', BUILD_TIMEOUT_MS: '5000', OPENAI_API_KEY: 'sk-x' },
    'keel worker',
  );
  expect(settings.env).toEqual({ VERCEL_TOKEN: 'tok' });
  expect(settings.vercel.teamId).toBe('team_1');
  expect(settings.buildLimits.timeoutMs).toBe(5_000);
});

test('a bad value stops start-up naming the variable', () => {
  expect(() => loadProductsConfig({ BUILD_TIMEOUT_MS: 'soon' }, 'keel worker')).toThrow(ConfigError);
  expect(() => loadProductsConfig({ VERCEL_API_URL: 'not a url' }, 'keel worker')).toThrow(/VERCEL_API_URL/);
});

import { loadApiConfig } from '../api/config';
import { loadStackConfig } from '../stack/config';
import { jobTaskQueue, temporalSettings } from '../temporal/config';
import { loadWorkerConfig } from '../temporal/worker-config';
import { ConfigError } from './parse-env';

describe('process configuration', () => {
  test('npm start runs on embedded defaults with an empty environment', () => {
    const config = loadStackConfig({});
    expect(config).toMatchObject({
      API_PORT: 3000,
      TEMPORAL_UI_PORT: 8233,
      DATA_DIR: '.data',
      KEEL_INSTANCE_ID: 'keel',
      POSTGRES_SCHEMA: 'keel',
      RATE_LIMIT_USER_PER_MINUTE: 120,
    });
    expect(config.POSTGRES_DSN).toBeUndefined();
    expect(config.TEMPORAL_ADDRESS).toBeUndefined();
  });

  test('a bad environment fails fast with one line per bad variable', () => {
    const attempt = () => loadStackConfig({ API_PORT: 'eighty', POSTGRES_DSN: 'not a url', REDIS_URL: 'http://x' });
    expect(attempt).toThrow(ConfigError);
    const lines = (() => {
      try {
        attempt();
      } catch (err) {
        return (err as Error).message.split('\n').slice(1);
      }
      return [];
    })();
    expect(lines.map((l) => l.trim().split(':')[0]).sort()).toEqual(['API_PORT', 'POSTGRES_DSN', 'REDIS_URL']);
  });

  test('the API and the worker alone require a real database and Temporal', () => {
    for (const load of [loadApiConfig, loadWorkerConfig]) {
      expect(() => load({})).toThrow(/POSTGRES_DSN[^\n]*required[\s\S]*TEMPORAL_ADDRESS[^\n]*required/);
      expect(load({ POSTGRES_DSN: 'postgres://db/keel', TEMPORAL_ADDRESS: 'temporal:7233' })).toMatchObject({
        POSTGRES_DSN: 'postgres://db/keel',
        TEMPORAL_ADDRESS: 'temporal:7233',
      });
    }
  });

  test('an empty variable means unset', () => {
    expect(loadStackConfig({ POSTGRES_DSN: '', REDIS_URL: '', KEEL_DEV_TOKEN: '' }).POSTGRES_DSN).toBeUndefined();
  });

  test('the job queue key is pinned by JOB_QUEUE_KEY, otherwise namespaced by the instance id', () => {
    expect(jobTaskQueue({ KEEL_INSTANCE_ID: 'blue' })).toBe('keel-jobs-blue');
    expect(jobTaskQueue({ KEEL_INSTANCE_ID: 'blue', JOB_QUEUE_KEY: 'jobs' })).toBe('jobs');
  });

  test('Temporal Cloud settings: an API key turns TLS on; mTLS reads the certificate files', () => {
    const files: Record<string, Buffer> = { '/c.pem': Buffer.from('CERT'), '/k.pem': Buffer.from('KEY') };
    const read = (p: string) => files[p]!;
    const local = temporalSettings(loadStackConfig({}), '127.0.0.1:7233', read);
    expect(local.tls).toBe(false);
    const cloud = temporalSettings(
      loadStackConfig({ TEMPORAL_API_KEY: 'k', TEMPORAL_NAMESPACE: 'ns.acct' }),
      'ns.acct.tmprl.cloud:7233',
      read,
    );
    expect(cloud).toMatchObject({ apiKey: 'k', namespace: 'ns.acct', tls: {} });
    const mtls = temporalSettings(
      loadStackConfig({ TEMPORAL_TLS_CERT_PATH: '/c.pem', TEMPORAL_TLS_KEY_PATH: '/k.pem' }),
      'ns.acct.tmprl.cloud:7233',
      read,
    );
    expect(mtls.tls).toEqual({
      serverNameOverride: undefined,
      clientCertPair: { crt: files['/c.pem'], key: files['/k.pem'] },
    });
  });
});

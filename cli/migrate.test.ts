import { parseEnv } from '../config/parse-env';
import { migrateEnv } from './migrate';

const env = { POSTGRES_DSN: 'postgres://db/keel' };

test("keel migrate registers the console's token in CONSOLE_ORG_ID, `dev` unless set", () => {
  expect(parseEnv(migrateEnv, env, 'keel migrate').CONSOLE_ORG_ID).toBe('dev');
  expect(parseEnv(migrateEnv, { ...env, CONSOLE_ORG_ID: 'acme' }, 'keel migrate').CONSOLE_ORG_ID).toBe('acme');
  expect(() => parseEnv(migrateEnv, { ...env, CONSOLE_ORG_ID: ' ' }, 'keel migrate')).toThrow(/CONSOLE_ORG_ID/);
});

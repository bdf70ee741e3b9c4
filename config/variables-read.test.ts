import { z } from 'zod';
import { parseEnv } from './parse-env';
import { unreadVariables, variablesRead } from './variables-read';

const schema = z.object({ PORT: z.coerce.number().default(3000), HOST: z.string().optional() });
const parse = (env: NodeJS.ProcessEnv) => parseEnv(schema, env, 'probe');

test('names the variables a parser reads, and those handed to it that it never reads', async () => {
  const env = { PORT: '8080', POSTGRES_DSN: 'postgres://secret@db/keel', DATA_DIR: '/data' };
  const { result, read } = await variablesRead(env, parse);
  expect(result).toEqual({ PORT: 8080 });
  expect([...read].sort()).toEqual(['HOST', 'PORT']);
  expect(unreadVariables(env, read, ['DATA_DIR'])).toEqual(['POSTGRES_DSN']);
});

test('refuses to vouch for a parser that lists the whole environment', async () => {
  await expect(variablesRead({ A: '1' }, (env) => Object.keys(env))).rejects.toThrow(/listed the whole environment/);
});

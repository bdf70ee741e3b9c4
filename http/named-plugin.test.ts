import type { FastifyInstance } from 'fastify';
import { consoleToRead, identityToRead, ingestApiToRead, readBuilt } from '../cli/api-client/document';
import { createBaseApp } from './base-app';
import { named } from './named-plugin';

/** Plugins `printPlugins()` shows by their source (fastify's fallback for an unnamed plugin: its first two lines). */
function unnamedPlugins(app: FastifyInstance): string[] {
  return app
    .printPlugins()
    .split('\n')
    .filter((line) => / -- |=>|function[ (]/.test(line));
}

test('a named plugin shows under its name, an unnamed one as its source', async () => {
  const app = createBaseApp({ title: 'Keel probe', description: 'plugins of a test' }, { logger: false });
  await app.register(named('greetingRoutes', async (scope) => scope.get('/hello', async () => 'hi')));
  await app.register(async (scope) => scope.get('/bye', async () => 'bye'));
  try {
    await app.ready();
    expect(app.printPlugins()).toContain('greetingRoutes');
    expect(unnamedPlugins(app)).toEqual([expect.stringContaining("scope.get('/bye'")]);
  } finally {
    await app.close();
  }
});

// An operator reading the plugin tree, or an error saying which plugin did not start in time, reads names.
test.each([
  ['ingest API', ingestApiToRead],
  ['identity service', identityToRead],
  ['console', consoleToRead],
])('every plugin of the %s has a name', async (_name, build) => {
  expect(await readBuilt(build, unnamedPlugins)).toEqual([]);
});

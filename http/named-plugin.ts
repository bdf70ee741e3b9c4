/**
 * A fastify plugin under a name: the one `app.printPlugins()` and avvio's "plugin did not start in time" error show
 * (the function's own name; an anonymous one shows as its first two source lines, `async (app) => { -- app.post(…`)
 * and fastify's `pluginName` (the display-name symbol).
 *
 * The symbol also spares fastify its fallback lookup for a plugin without one, a walk over every loaded module
 * (`require.cache`), twice per registration. Cheap in production, but under jest that cache is a proxy over the file's
 * module registry, and the walks took about 3% of the test suite's CPU.
 */
export function named<P extends object>(name: string, plugin: P): P {
  Object.defineProperty(plugin, 'name', { value: name });
  return Object.defineProperty(plugin, Symbol.for('fastify.display-name'), { value: name });
}

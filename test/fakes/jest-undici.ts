import vm from 'node:vm';

const DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * Jest runs each test file in a vm context whose `globalThis` lacks the undici dispatcher that Node's `fetch`
 * registers on the real global. @google/genai looks it up there (to switch off undici's own 300 s timeouts)
 * and throws "Undici globalDispatcher is not available" without it; outside Jest it is always present. Sharing
 * the real dispatcher makes the client behave under test as it does in production.
 */
export function shareUndiciDispatcher(): void {
  // Creating Headers makes Node initialise its bundled undici, which registers the dispatcher.
  new Headers();
  const realGlobal = vm.runInThisContext('globalThis') as Record<symbol, unknown>;
  (globalThis as unknown as Record<symbol, unknown>)[DISPATCHER] ??= realGlobal[DISPATCHER];
}

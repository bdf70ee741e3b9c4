'use strict';
/**
 * Preloaded into every process of a test run (NODE_OPTIONS, set by test/global-setup.ts): in the Temporal SDK's
 * workflow threads, the promise hook its `setPromiseHook` creates is never installed; every other hook is.
 *
 * The SDK installs that hook in each workflow thread to record a stack trace for every promise a workflow creates,
 * for the `__stack_trace` query behind the Temporal UI's "Stack Trace" tab. It is diagnostics only (no workflow
 * decision reads it) and costs the suite about a sixth of its CPU: 634 → 521 s user, 419 → 352 s wall
 * (docs/performance.md, "The test suite"). The SDK offers no option to turn it off, hence the preload.
 *
 * Processes a test starts with an environment of its own (`npm start` in stack-lifecycle.test.ts) run without this
 * preload, as production does, and that test checks the Temporal UI's stack trace of a paused job.
 */
const { isMainThread } = require('node:worker_threads');

if (!isMainThread) {
  const { promiseHooks } = require('node:v8');
  const createHook = promiseHooks.createHook;
  // Node's own async context tracking (AsyncLocalStorage, which the SDK's cancellation scopes use) goes through the
  // same function: only a hook created directly by the SDK's GlobalHandlers.setPromiseHook is left out.
  promiseHooks.createHook = function (hooks) {
    const caller = (new Error().stack ?? '').split('\n')[2] ?? '';
    if (/\bsetPromiseHook\b.*[\\/]@temporalio[\\/]worker[\\/]/.test(caller)) return () => undefined;
    return createHook.call(this, hooks);
  };
}

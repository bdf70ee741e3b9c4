'use strict';
/**
 * Preloaded into every process of a test run (NODE_OPTIONS, set by test/global-setup.ts), it turns off two pieces of
 * the Temporal SDK's diagnostics wherever workflows run: its workflow threads, and the calling thread of a replay
 * worker. Neither is read by any workflow decision, each costs the suite a large share of its CPU
 * (docs/performance.md, "The test suite"), and the SDK has no option for either.
 *
 * - Per-promise stack traces: the promise hook the SDK's `setPromiseHook` creates is never installed; every other
 *   hook is. The SDK records a source-mapped stack trace for every promise a workflow creates, for the `__stack_trace`
 *   query behind the Temporal UI's "Stack Trace" tab (634 → 521 s user, 419 → 352 s wall).
 * - The deadlock detector's watchdog: the SDK runs every call into a workflow's V8 context with a 5 s `timeout`
 *   (`debugMode` only raises it), and Node starts a watchdog thread for each such call: 65 µs against 0.8 µs without
 *   one, a few calls per workflow activation. A workflow stuck in a loop then hangs its test until jest's timeout
 *   instead of failing its workflow task after 5 s.
 *
 * Processes a test starts with an environment of its own (`npm start` in stack-lifecycle.test.ts) run without this
 * preload, as production does, and that test checks the Temporal UI's stack trace of a paused job.
 */
const { isMainThread } = require('node:worker_threads');
const { promiseHooks } = require('node:v8');

// Node's own async context tracking (AsyncLocalStorage, which the SDK's cancellation scopes use) goes through the same
// function: only a hook created directly by the SDK's GlobalHandlers.setPromiseHook is left out.
const createHook = promiseHooks.createHook;
promiseHooks.createHook = function (hooks) {
  const caller = (new Error().stack ?? '').split('\n')[2] ?? '';
  if (/\bsetPromiseHook\b.*[\\/]@temporalio[\\/]worker[\\/]/.test(caller)) return () => undefined;
  return createHook.call(this, hooks);
};

if (!isMainThread) {
  // The workflow thread builds its V8 context with `ReusableVMWorkflowCreator.create(bundle, timeoutMs, …)`; given no
  // timeout, the creator passes `timeout: undefined` to every `runInContext`, which Node runs without a watchdog.
  const Module = require('node:module');
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    const loaded = load.call(this, request, parent, isMain);
    if (
      request === './reusable-vm' &&
      /[\\/]@temporalio[\\/]worker[\\/]lib[\\/]workflow[\\/]/.test(parent?.filename ?? '') &&
      !loaded.ReusableVMWorkflowCreator.keelWatchdogOff
    ) {
      const creator = loaded.ReusableVMWorkflowCreator;
      const create = creator.create;
      creator.create = function (bundle, _timeoutMs, ...rest) {
        return create.call(this, bundle, undefined, ...rest);
      };
      creator.keelWatchdogOff = true;
    }
    return loaded;
  };
} else {
  // Replay workers (`Worker.runReplayHistories`) run workflows in the calling thread in the SDK's debug mode, whose
  // timeout is 2^32-1 ms, no deadline at all: such a call runs without the watchdog thread. (The SDK is loaded through
  // jest's module registry there, out of reach of the hook above.)
  const vm = require('node:vm');
  const runInContext = vm.Script.prototype.runInContext;
  vm.Script.prototype.runInContext = function (context, options) {
    if (options?.timeout >= 4294967295) return runInContext.call(this, context, { ...options, timeout: undefined });
    return runInContext.call(this, context, options);
  };
}

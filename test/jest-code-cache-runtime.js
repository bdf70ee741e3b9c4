'use strict';
/**
 * jest's module runtime, with V8's code cache for the modules it compiles (jest.config.js `runtime`, loaded once in each
 * jest process). A jest worker runs dozens of test files and compiles every module afresh for each one (a module
 * registry per file), so the same few thousand modules (the Temporal SDK and its protobuf tables, fastify, zod…) were
 * parsed and compiled again for every file. Now the first compile of a module in a process keeps V8's code cache for
 * it, and later files compile from that cache.
 *
 * Only compiling changes: each file still gets its own module registry and evaluates every module afresh.
 *
 * jest-runtime compiles through the public `vm.compileFunction` (Node's own module loader does not), so that is where
 * the cache goes.
 */
const vm = require('node:vm');

/** Per module file: the source the cache was made from (a changed source compiles afresh) and V8's cached data. */
const cache = new Map();
const compileFunction = vm.compileFunction;

vm.compileFunction = function compileFunctionWithCodeCache(code, params, options) {
  const filename = options?.filename;
  if (typeof filename !== 'string' || options.cachedData !== undefined) return compileFunction(code, params, options);
  const hit = cache.get(filename);
  if (hit?.code === code) {
    const fn = compileFunction(code, params, { ...options, cachedData: hit.data });
    if (fn.cachedDataRejected) cache.delete(filename);
    return fn;
  }
  const fn = compileFunction(code, params, { ...options, produceCachedData: true });
  if (fn.cachedData) cache.set(filename, { code, data: fn.cachedData });
  return fn;
};

module.exports = require('jest-runtime');
